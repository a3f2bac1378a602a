/**
 * What a valid variant of the hostile sweep acts on. By default an endpoint's example as it is:
 * its ids name the records the examples created earlier in the same world (contract-sweep.test.ts
 * runs every example but the removals first). An endpoint whose call uses its record up (ships an
 * order, approves a claim), or whose example may be made once only (a unique key, a throttle),
 * gets a fixture here that makes what one call needs, so every valid variant meets a record that
 * exists and takes its input.
 */
import type { Access, ApiPath } from '@appdesk/contract';
import { sql } from 'kysely';
import { type Answer, nextPhone } from './harness';
import { makeImage, makeWav } from './media';
import { defOf, exampleOf } from './sweep-variants';
import type { World } from './world';

export interface Prepared {
  /** The body to vary one field of. */
  body: Record<string, unknown>;
  /** The caller, when not the one the endpoint's access level gets by default. */
  token?: string;
  /** The record the call acts on, for the reads that look for what it stored. */
  recordId?: number;
  /** What makes a kept value show, when only a later step shows it (a code shows once redeemed). */
  reveal?: () => Promise<unknown>;
}

export interface SweepContext {
  world: World;
  /**
   * The token of an access level's caller, the same one for a while: each new session of an
   * account past its tenth ends the oldest, so a test must not make one per call.
   */
  tokenFor(access: Access): Promise<string>;
  /** Calls an endpoint as its access level's caller (or as `token`). */
  call(p: ApiPath, body: unknown, token?: string): Promise<Answer>;
  /** A call that must succeed: its data. */
  made(p: ApiPath, body: unknown, token?: string): Promise<unknown>;
  /** A number no other call of the sweep gets. */
  serial(): number;
}

/**
 * A sweep context on a world: each access level's caller keeps one session until `forgetTokens`
 * (a test that may end sessions starts with new ones).
 */
export function sweepContext(worldOf: () => World): SweepContext & { forgetTokens(): void } {
  let serial = 0;
  let tokens = new Map<Access, Promise<string>>();
  const s: SweepContext & { forgetTokens(): void } = {
    get world() {
      return worldOf();
    },
    tokenFor: (access) => {
      if (!tokens.has(access)) tokens.set(access, worldOf().tokenFor(access));
      return tokens.get(access) as Promise<string>;
    },
    call: async (p, body, token) => worldOf().server.call(p, body, token ?? (await s.tokenFor(defOf(p).access))),
    made: async (p, body, token) => {
      const answer = await s.call(p, body, token);
      if (answer.body.code !== 200) throw new Error(`${p} for a fixture: ${answer.text.slice(0, 300)}`);
      return answer.body.data;
    },
    serial: () => ++serial,
    forgetTokens: () => {
      tokens = new Map();
    },
  };
  return s;
}

/** The first `id` in an answer's data, however deep: the record a make call made. */
export function idIn(data: unknown): number | undefined {
  if (!data || typeof data !== 'object') return undefined;
  if (Array.isArray(data)) {
    for (const item of data) {
      const found = idIn(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const record = data as Record<string, unknown>;
  if (typeof record.id === 'number') return record.id;
  for (const value of Object.values(record)) {
    const found = idIn(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A multipart upload with the endpoint's other fields, each sent as JSON (as the web sends them). */
export async function uploadWith(
  s: SweepContext,
  p: ApiPath,
  fields: Record<string, unknown>,
  token: string,
): Promise<Answer> {
  const upload = defOf(p).upload;
  if (!upload) throw new Error(`${p} takes no upload`);
  // A new file each time: the media library answers an identical file with the one it already has.
  const bytes = upload.kind === 'audio' ? makeWav(0.05, 8000, s.serial()) : await makeImage(4, 4);
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, JSON.stringify(value));
  form.append(upload.field, new Blob([bytes as Uint8Array<ArrayBuffer>]), upload.kind === 'audio' ? 'a.wav' : 'a.png');
  return s.world.server.raw(p, { method: 'POST', headers: { token }, body: form });
}

/** Each new value of `make` once, then the same one: a record several fixtures share. */
function once<T>(make: (s: SweepContext) => Promise<T>): (s: SweepContext) => Promise<T> {
  let made: Promise<T> | undefined;
  return (s) => {
    made ??= make(s);
    return made;
  };
}

/** Enough coins for every redemption the sweep's caller makes. */
const callerCoins = once((s) =>
  s.made('/api/users/update/coins', { id: s.world.callerId, delta: 100_000, reason: '兑换测试' }),
);

/** A shop item of this kind that anyone may redeem for one coin, as often as they like. */
async function shopItem(s: SweepContext, kind: 'physical' | 'code'): Promise<number> {
  await callerCoins(s);
  const data = await s.made('/api/exchange/item/make', {
    name: kind === 'code' ? '兑换码：视频会员周卡' : '实物：帆布袋',
    kind,
    costCoins: 1,
    perUserLimit: 0,
    enabled: true,
  });
  return idIn(data) as number;
}
const physicalItem = once((s) => shopItem(s, 'physical'));

/** A redemption of the physical item waiting to be shipped. */
async function pendingShipment(s: SweepContext): Promise<number> {
  const data = await s.made('/api/exchange/record/make', {
    ...exampleOf('/api/exchange/record/make'),
    itemId: await physicalItem(s),
  });
  return idIn(data) as number;
}

/** An order of plan 1 waiting for payment, by the sweep's caller. */
async function pendingOrder(s: SweepContext): Promise<number> {
  return idIn(await s.made('/api/order/make', exampleOf('/api/order/make'))) as number;
}

/** Another app user every 20 calls: per-user hourly limits are not what the sweep is about. */
function rotatingUser() {
  let user: Promise<string> | undefined;
  let calls = 0;
  return (s: SweepContext) => {
    if (!user || calls++ % 20 === 0) user = s.world.server.addUser().then(({ id }) => s.world.tokenOf(id));
    return user;
  };
}
const feedbackWriter = rotatingUser();

type Fixture = (s: SweepContext, example: Record<string, unknown>) => Promise<Prepared>;

/** Per endpoint, what one valid call needs made first. */
/** A user's review claim waiting for an operator. */
async function pendingClaim(s: SweepContext): Promise<number> {
  const upload = await uploadWith(s, '/api/reviewreward/make', { store: 'huawei' }, await s.world.tokenFor('user'));
  if (upload.body.code !== 200) throw new Error(`a review claim: ${upload.text.slice(0, 300)}`);
  return idIn(upload.body.data) as number;
}

/** An app of its own: the sweep must never disable or rename the default app its other calls name. */
async function ownApp(s: SweepContext): Promise<number> {
  const data = await s.made('/api/apps/make', appIdentity(s.serial()));
  return (data as { app: { id: number } }).app.id;
}
/** A code and store identities no other app has (they are unique across apps). */
const appIdentity = (n: number) => ({
  code: `sweep${n}`,
  name: `应用${n}`,
  iosBundleId: `com.sweep.app${n}`,
  alipayAppId: String(2021000000000000 + n),
});

export const fixtures: Partial<Record<ApiPath, Fixture>> = {
  '/api/apps/make': async (s, example) => ({ body: { ...example, ...appIdentity(s.serial()) } }),
  '/api/apps/update': async (s, example) => {
    const id = await ownApp(s);
    return { body: { ...example, id }, recordId: id };
  },
  '/api/apps/secret/set': async (s, example) => ({ body: { ...example, id: await ownApp(s) } }),
  '/api/apps/update/enabled/batch': async (s, example) => ({ body: { ...example, ids: [await ownApp(s)] } }),
  // Keys are unique within an app.
  '/api/a11t/make': async (s, example) => ({ body: { ...example, key: `sweep.key_${s.serial()}` } }),
  // A text entry (the example's is boolean, which takes no text) at its first revision.
  '/api/a11t/update': async (s, example) => {
    const data = await s.made('/api/a11t/make', { key: `sweep.key_${s.serial()}`, type: 'string', value: '' });
    const entry = (data as { entry: { id: number; revision: number } }).entry;
    return { body: { ...example, id: entry.id, baseRevision: entry.revision }, recordId: entry.id };
  },
  // A site is set up once: set this one back to before its first start, with an unused number.
  '/api/allocation/init': async (s, example) => {
    await s.world.server.app.services.db.updateTable('allocation').set({ is_init: 0 }).where('id', '=', 1).execute();
    return { body: { ...example, phone: nextPhone() } };
  },
  // A physical item (the example's code item is limited to one per user) with its delivery address.
  '/api/exchange/make': async (s, example) => ({
    body: {
      ...example,
      itemId: await physicalItem(s),
      receiverName: '李四',
      receiverPhone: '13912345678',
      address: '北京市海淀区中关村大街 1 号',
    },
  }),
  // Shipping and cancelling end a redemption's wait: each call gets a waiting one.
  '/api/exchange/record/ship': async (s, example) => {
    const id = await pendingShipment(s);
    return { body: { ...example, id }, recordId: id };
  },
  '/api/exchange/record/cancel': async (s, example) => {
    const id = await pendingShipment(s);
    return { body: { ...example, id }, recordId: id };
  },
  // A batch works on records of its own too, so that its texts are kept and read back.
  '/api/exchange/record/ship/batch': async (s, example) => {
    const id = await pendingShipment(s);
    return { body: { ...example, ids: [id] }, recordId: id };
  },
  '/api/exchange/record/cancel/batch': async (s, example) => {
    const id = await pendingShipment(s);
    return { body: { ...example, ids: [id] }, recordId: id };
  },
  // A code item of its own, so that the code imported is the one a redemption then hands out.
  '/api/exchange/code/import': async (s, example) => {
    const itemId = await shopItem(s, 'code');
    return { body: { ...example, itemId }, reveal: () => s.made('/api/exchange/make', { itemId }) };
  },
  // Five a device and sixty a network an hour: one device each, and a new hour for the test's address.
  '/api/feedback/make': async (s, example) => {
    await s.world.server.app.services.db.deleteFrom('login_attempts').where('key', 'like', 'feedback:ip:%').execute();
    return { body: { ...example, deviceId: `sweep-device-${s.serial()}` } };
  },
  '/api/feedbackv2/make': async (s, example) => ({ body: example, token: await feedbackWriter(s) }),
  // Product ids are unique per app and platform; on Android, so that the example's iOS product
  // (which the update variants rename) never meets one of these.
  '/api/iap/make': async (s, example) => ({
    body: { ...example, platform: 'android', productId: `com.example.tailor.sweep${s.serial()}` },
  }),
  // A purchase token is recorded once: a repeat is answered with the first record.
  '/api/iaprecord/google': async (s, example) => ({ body: { ...example, purchaseToken: `token-${s.serial()}` } }),
  '/api/order/cancel': async (s, example) => {
    const id = await pendingOrder(s);
    return { body: { ...example, id }, recordId: id };
  },
  '/api/order/pay': async (s, example) => {
    const id = await pendingOrder(s);
    return { body: { ...example, id }, recordId: id };
  },
  // Only a paid order can be refunded.
  '/api/order/refund': async (s, example) => {
    const id = await pendingOrder(s);
    await s.made('/api/order/pay', { id, note: '已到账' });
    return { body: { ...example, id }, recordId: id };
  },
  // A claim waiting for review, from an app user.
  '/api/reviewreward/reject': async (s, example) => {
    const id = await pendingClaim(s);
    return { body: { ...example, id }, recordId: id };
  },
  '/api/reviewreward/reject/batch': async (s, example) => {
    const id = await pendingClaim(s);
    return { body: { ...example, ids: [id] }, recordId: id };
  },
  // An account per operator: a phone no account has.
  '/api/operators/make': async (_s, example) => ({ body: { ...example, phone: nextPhone() } }),
  // Role names are unique: each new role a name of its own.
  '/api/roles/make': async (s, example) => ({ body: { ...example, name: `角色${s.serial()}` } }),
  // The example's role takes the names the make variants gave other roles: those step aside first.
  '/api/roles/update': async (s, example) => {
    await s.world.server.app.services.db
      .updateTable('roles')
      .set({ name: sql<string>`'sweep-role-' || id` })
      .where('builtin', 'is', null)
      .where('id', '<>', example.id as number)
      .where('name', 'not like', 'sweep-role-%')
      .execute();
    return { body: example, recordId: example.id as number };
  },
  // One release per app, platform, channel and version code.
  '/api/version/make': async (s, example) => ({ body: { ...example, versionCode: 1000 + s.serial() } }),
};

/**
 * Fields whose hostile value is the name the call looks a record up by: no record has that name,
 * and "not found" is the right answer.
 */
export const lookupFields: Partial<Record<ApiPath, string[]>> = {
  '/api/order/fetch/mine': ['orderNo'],
};

/** Reads outside an endpoint's own feature where what it stores is read back. */
export const readsElsewhere: Partial<Record<ApiPath, ApiPath[]>> = {
  '/api/users/message/batch': ['/api/message/fetch/page'],
};

/**
 * Free-text fields of writes that no read shows back, and why. Each must indeed never be shown
 * (the sweep checks), so the list cannot hide a field that is.
 */
export const notShown: Partial<Record<ApiPath, Record<string, string>>> = {
  '/api/allocation/init': { plainPassword: 'checked against the operator password rule, then dropped: never stored' },
  '/api/apps/secret/set': { value: 'a secret is sealed and never answered back: only whether it is set, and when' },
  '/api/exchange/code/import': { xlsxBase64: 'the spreadsheet is read for its codes, which are kept; the file is not' },
  '/api/feedback/make': { deviceId: "counts a device's submissions; operators see the model, not the id" },
  '/api/iaprecord/apple': { signedTransaction: 'what the signed text claims is kept, decoded; the text is not' },
  '/api/iaprecord/apple/notify': {
    signedPayload: 'without App Store keys nothing can be verified, so nothing is kept',
  },
  '/api/selfapp/report': { channel: 'a channel not in the list is counted as 其他' },
  '/api/users/login/totp': { recoveryCode: 'checked against the digests of the codes handed out; never kept' },
  '/api/users/update/password': { plainPassword: 'an operator’s is checked against the password rule, then dropped' },
  '/api/version/report': { channel: 'a channel not in the list is counted as 其他' },
};
