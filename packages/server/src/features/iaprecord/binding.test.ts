import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlayFake, productPurchase, startPlayFake, subscriptionPurchase } from '../../../test/google-play';
import { startServer, type TestServer } from '../../../test/harness';
import { makeTestChain } from '../../../test/storekit-chain';
import { unreconciledUsers } from '../../core/ledger';
import { DAY_MS } from '../vip/public';

// A purchase belongs to the account that made it: a renewal or a replay posted by another account
// grants nothing and says nothing about the buyer; one store transaction has one record.
const chain = makeTestChain();
const bundleId = 'com.example.tailor';
const month = 'com.example.bind.month';
const lifetime = 'com.example.bind.lifetime';
const playMonth = 'com.example.bind.play.month';
const playCoins = 'com.example.bind.play.coins';
let play: PlayFake;
let server: TestServer;
let bare: TestServer;
let admin: string;

beforeAll(async () => {
  play = await startPlayFake();
  const apple = { bundleId, appAppleId: 1234, environments: ['Sandbox' as const], rootCertificates: [chain.rootDer] };
  server = await startServer({ payments: { apple, alipay: null, wechat: null, google: play.config } });
  bare = await startServer({ payments: { apple: null, alipay: null, wechat: null } });
  admin = (await server.initAdmin()).token;
  const products = [
    { platform: 'ios', productId: month, type: 'subscription', vipDays: 30, coins: 0 },
    { platform: 'ios', productId: lifetime, type: 'non_consumable', vipDays: 365, coins: 0 },
    { platform: 'android', productId: playMonth, type: 'subscription', vipDays: 30, coins: 0 },
    { platform: 'android', productId: playCoins, type: 'consumable', vipDays: 0, coins: 100 },
  ];
  for (const p of products) {
    const made = await server.call('/api/iap/make', { name: '商品', price: 1800, ...p }, admin);
    expect(made.body.code, made.text).toBe(200);
  }
}, 90_000);
afterAll(async () => {
  await server?.close();
  await bare?.close();
  await play?.close();
});

type Answer = {
  record: { id: number; userId: number | null; userPhone: string | null; status: string; reason: string | null };
  duplicate: boolean;
};
const db = () => server.app.services.db;
let serial = 3_000_000;
const transaction = (fields: object = {}) => {
  serial += 1;
  const now = Date.now();
  return {
    transactionId: String(serial),
    originalTransactionId: String(serial),
    bundleId,
    productId: month,
    purchaseDate: now,
    signedDate: now,
    environment: 'Sandbox',
    type: 'Auto-Renewable Subscription',
    inAppOwnershipType: 'PURCHASED',
    ...fields,
  };
};
const appUser = async (on = server) => {
  const user = await on.addUser();
  const masked = `${user.phone.slice(0, 3)}****${user.phone.slice(7)}`;
  return { ...user, masked, token: await on.login(user.phone, user.password) };
};
type User = Awaited<ReturnType<typeof appUser>>;
const postApple = async (user: User, tx: object, on = server) => {
  const answer = await on.call('/api/iaprecord/apple', { signedTransaction: chain.sign(tx) }, user.token);
  expect(answer.body.code, answer.text).toBe(200);
  return { ...(answer.body.data as Answer), text: answer.text };
};
const postGoogle = async (user: User, productId: string, purchaseToken: string, on = server) => {
  const answer = await on.call('/api/iaprecord/google', { productId, purchaseToken }, user.token);
  expect(answer.body.code, answer.text).toBe(200);
  return { ...(answer.body.data as Answer), text: answer.text };
};
const notify = async (type: string, tx: object) => {
  const signedPayload = chain.sign({
    notificationType: type,
    notificationUUID: randomUUID(),
    version: '2.0',
    signedDate: Date.now(),
    data: { bundleId, appAppleId: 1234, environment: 'Sandbox', signedTransactionInfo: chain.sign(tx) },
  });
  const answer = await server.call('/api/iaprecord/apple/notify', { signedPayload });
  expect(answer.body.code, answer.text).toBe(200);
  return answer.body.data as { status: string; reason: string | null };
};
const vipOf = async (id: number, on = server) => {
  const row = await on.app.services.db
    .selectFrom('users')
    // VIP is per app: these purchases are the default app's (tailor).
    .leftJoin('vip_entitlements as v', (j) => j.onRef('v.user_id', '=', 'users.id').on('v.app', '=', 'tailor'))
    .select(['users.coins', 'v.expires_at as vip_expires_at'])
    .where('users.id', '=', id)
    .executeTakeFirstOrThrow();
  return { vip: row.vip_expires_at === null ? null : Number(row.vip_expires_at), coins: Number(row.coins) };
};
/** The other account's answer holds nothing of the buyer: no id, no phone (masked or whole). */
const learnsNothingOf = (answer: { text: string; record: Answer['record'] }, buyer: User, poster: User) => {
  expect(answer.record.userId).toBe(poster.id);
  expect(answer.text).not.toContain(buyer.masked);
  expect(answer.text).not.toContain(buyer.phone);
  expect(answer.text).not.toMatch(new RegExp(`"userId":${buyer.id}\\b`));
};
const recordsOf = (transactionId: string) =>
  db()
    .selectFrom('iap_records')
    .select(['id', 'user_id', 'status', 'reason'])
    .where((eb) => eb.or([eb('transaction_id', '=', transactionId), eb('claimed_transaction_id', '=', transactionId)]))
    .execute();

describe('App Store purchases belong to their buyer', () => {
  it("B posting A's transaction or A's renewal gets nothing and learns nothing of A", async () => {
    const [a, b] = [await appUser(), await appUser()];
    const first = transaction();
    expect((await postApple(a, first)).record.status).toBe('granted');
    const aVip = (await vipOf(a.id)).vip;

    const replay = await postApple(b, first);
    expect(replay.record.status).toBe('rejected');
    expect(replay.record.reason).toContain('其他账号');
    learnsNothingOf(replay, a, b);

    const renewal = transaction({ originalTransactionId: first.transactionId });
    const stolen = await postApple(b, renewal);
    expect(stolen.record.status).toBe('rejected');
    learnsNothingOf(stolen, a, b);
    expect(await vipOf(b.id)).toEqual({ vip: null, coins: 0 });

    // The renewal still goes to its buyer, by notification or by the app.
    expect(await notify('DID_RENEW', renewal)).toMatchObject({ status: 'applied' });
    expect((await postApple(a, renewal)).duplicate).toBe(true);
    expect((await vipOf(a.id)).vip).toBe(Number(aVip) + 30 * DAY_MS);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('a purchase made for one app account (appAccountToken) is refused to another', async () => {
    const [a, b] = [await appUser(), await appUser()];
    const accountToken = randomUUID();
    expect((await postApple(a, transaction({ appAccountToken: accountToken }))).record.status).toBe('granted');
    // Another subscription bought for A's app account: B cannot take it, and its notification
    // (arriving before the app posts it) goes to A.
    const other = transaction({ appAccountToken: accountToken });
    const taken = await postApple(b, other);
    expect(taken.record.status).toBe('rejected');
    learnsNothingOf(taken, a, b);
    const before = Number((await vipOf(a.id)).vip);
    expect(await notify('SUBSCRIBED', other)).toMatchObject({ status: 'applied' });
    expect(Number((await vipOf(a.id)).vip)).toBe(before + 30 * DAY_MS);
    expect(await vipOf(b.id)).toEqual({ vip: null, coins: 0 });
  });

  it('ONE_TIME_CHARGE before the app posts: one record, granted to the poster, its reason not about a subscription', async () => {
    const a = await appUser();
    const tx = transaction({ productId: lifetime, type: 'Non-Consumable' });
    expect(await notify('ONE_TIME_CHARGE', tx)).toMatchObject({ status: 'applied' });
    const waiting = await recordsOf(tx.transactionId);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ status: 'pending', user_id: null });
    expect(waiting[0].reason).not.toContain('订阅');
    const posted = await postApple(a, tx);
    expect(posted.record).toMatchObject({ id: waiting[0].id, status: 'granted', userId: a.id });
    expect(await recordsOf(tx.transactionId)).toEqual([
      expect.objectContaining({ id: waiting[0].id, status: 'granted', user_id: a.id }),
    ]);
    expect(Number((await vipOf(a.id)).vip) - Date.now()).toBeGreaterThan(364 * DAY_MS);
    // The other order: the app first, the notification after.
    const later = transaction({ productId: lifetime, type: 'Non-Consumable' });
    await postApple(a, later);
    expect(await notify('ONE_TIME_CHARGE', later)).toMatchObject({ status: 'duplicate' });
    expect(await recordsOf(later.transactionId)).toHaveLength(1);
    expect(await unreconciledUsers(db())).toEqual([]);
  });
});

describe('racing posts of one new transaction', () => {
  it('two accounts and its notification at once: one record, one account granted, the other told nothing', {
    repeats: 5,
    timeout: 120_000,
  }, async () => {
    const [a, b] = [await appUser(), await appUser()];
    const tx = transaction({ productId: lifetime, type: 'Non-Consumable' });
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => postApple(a, tx)),
      ...Array.from({ length: 5 }, () => postApple(b, tx)),
      notify('ONE_TIME_CHARGE', tx),
    ]);
    const posts = answers.slice(0, 10) as Awaited<ReturnType<typeof postApple>>[];
    const winners = new Set(posts.filter((p) => p.record.status === 'granted').map((p) => p.record.userId));
    expect(winners.size).toBe(1);
    const [winner, loser] = winners.has(a.id) ? [a, b] : [b, a];
    for (const p of posts.filter((p) => p.record.userId === loser.id)) {
      expect(p.record.status).toBe('rejected');
      learnsNothingOf(p, winner, loser);
    }
    const held = (await recordsOf(tx.transactionId)).filter((r) => r.status !== 'rejected');
    expect(held).toEqual([expect.objectContaining({ status: 'granted', user_id: winner.id })]);
    expect(await vipOf(loser.id)).toEqual({ vip: null, coins: 0 });
    expect(await unreconciledUsers(db())).toEqual([]);
  });
});

describe('Google Play purchases belong to their buyer', () => {
  it("B posting A's one-time purchase token gets nothing and learns nothing of A", async () => {
    const [a, b] = [await appUser(), await appUser()];
    const token = `play-${randomUUID()}`;
    play.products.set(token, productPurchase({ acknowledgementState: 1, consumptionState: 1 }));
    expect((await postGoogle(a, playCoins, token)).record.status).toBe('granted');
    const replay = await postGoogle(b, playCoins, token);
    expect(replay.record.status).toBe('rejected');
    learnsNothingOf(replay, a, b);
    expect(await vipOf(b.id)).toEqual({ vip: null, coins: 0 });
    expect(await vipOf(a.id)).toMatchObject({ coins: 100 });
  });

  it("B posting A's renewed subscription token gets nothing; A's renewal goes to A", async () => {
    const [a, b] = [await appUser(), await appUser()];
    const token = `play-${randomUUID()}`;
    const ack = { acknowledgementState: 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED' };
    play.subscriptions.set(token, subscriptionPurchase(playMonth, 'GPA.7-7-7', Date.now() + 30 * DAY_MS, ack));
    expect((await postGoogle(a, playMonth, token)).record.status).toBe('granted');
    const aVip = Number((await vipOf(a.id)).vip);
    play.subscriptions.set(token, subscriptionPurchase(playMonth, 'GPA.7-7-7..0', Date.now() + 60 * DAY_MS, ack));
    const stolen = await postGoogle(b, playMonth, token);
    expect(stolen.record.status).toBe('rejected');
    learnsNothingOf(stolen, a, b);
    expect(await vipOf(b.id)).toEqual({ vip: null, coins: 0 });
    expect((await postGoogle(a, playMonth, token)).record.status).toBe('granted');
    expect(Number((await vipOf(a.id)).vip)).toBe(aVip + 30 * DAY_MS);
  });

  it("without Google configured, B posting A's pending token is not shown A's record", async () => {
    const [a, b] = [await appUser(bare), await appUser(bare)];
    const token = `play-${randomUUID()}`;
    expect((await postGoogle(a, playCoins, token, bare)).record.status).toBe('pending');
    const replay = await postGoogle(b, playCoins, token, bare);
    expect(replay.record.status).toBe('rejected');
    learnsNothingOf(replay, a, b);
  });
});

describe('records from before the binding', () => {
  it('a notification’s orphan waits for the post, a copy beside a held transaction is closed, reasons read in words', async () => {
    const { up } = await import('./migrations/202611281310_iap_waiting_records');
    const a = await appUser();
    const [lone, held] = [transaction({ productId: lifetime }), transaction({ productId: lifetime })];
    expect((await postApple(a, held)).record.status).toBe('granted');
    const old = (claimed: string | null, reason: string, platform = 'ios') => ({
      user_id: null,
      app: 'tailor',
      platform,
      product_id: lifetime,
      transaction_id: null,
      claimed_transaction_id: claimed,
      original_transaction_id: claimed,
      app_account_token: null,
      environment: 'Sandbox',
      status: 'pending',
      reason,
      vip_days: 0,
      coins: 0,
      purchased_at: null,
      expires_at: null,
      refunded_at: null,
      payload: null,
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    const subscriptionWords = '找不到购买用户：App 尚未提交这笔订阅的首次购买';
    const inserted = await db()
      .insertInto('iap_records')
      .values([
        old(lone.transactionId, subscriptionWords),
        old(held.transactionId, subscriptionWords),
        old(
          `play-${randomUUID()}`,
          '服务器未配置 Google Play 验证（GOOGLE_PLAY_SERVICE_ACCOUNT），待人工核对',
          'android',
        ),
      ])
      .returning('id')
      .execute();
    await up(db() as never);
    const rows = await db()
      .selectFrom('iap_records')
      .select(['id', 'status', 'transaction_id', 'reason'])
      .where(
        'id',
        'in',
        inserted.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    expect(rows[0]).toMatchObject({ status: 'pending', transaction_id: lone.transactionId });
    expect(rows[1]).toMatchObject({ status: 'rejected', transaction_id: null });
    for (const row of rows) expect(row.reason).not.toMatch(/订阅|[A-Z]+_[A-Z]+/);
    // The app's post now claims the waiting record instead of making a second one.
    expect((await postApple(a, lone)).record).toMatchObject({ id: rows[0].id, status: 'granted' });
  });
});
