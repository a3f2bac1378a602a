import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { makeTestChain } from '../../../test/storekit-chain';
import { unreconciledUsers } from '../../core/ledger';
import { DAY_MS } from '../vip/public';

const chain = makeTestChain();
const bundleId = 'com.example.tailor';
let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({
    payments: {
      apple: { bundleId, appAppleId: 1234, environments: ['Sandbox'], rootCertificates: [chain.rootDer] },
      alipay: null,
      wechat: null,
    },
  });
  admin = (await server.initAdmin()).token;
  const products = [
    { productId: 'com.example.vip.month', type: 'subscription', vipDays: 30, coins: 0 },
    { productId: 'com.example.coins.100', type: 'consumable', vipDays: 0, coins: 100 },
  ];
  for (const p of products) {
    const made = await server.call('/api/iap/make', { platform: 'ios', name: '商品', price: 1800, ...p }, admin);
    expect(made.body.code).toBe(200);
  }
});
afterAll(async () => {
  await server.close();
});

type Record = { id: number; status: string; reason: string | null; transactionId: string | null; coins: number };
type Posted = { record: Record; duplicate: boolean };
const db = () => server.app.services.db;
let serial = 1_000_000;
const transaction = (fields: object = {}) => {
  serial += 1;
  const now = Date.now();
  return {
    transactionId: String(serial),
    originalTransactionId: String(serial),
    bundleId,
    productId: 'com.example.coins.100',
    purchaseDate: now,
    signedDate: now,
    environment: 'Sandbox',
    type: 'Consumable',
    inAppOwnershipType: 'PURCHASED',
    ...fields,
  };
};
const appUser = async () => {
  const user = await server.addUser();
  return { ...user, token: await server.login(user.phone, user.password) };
};
const post = async (token: string, signedTransaction: string) => {
  const answer = await server.call('/api/iaprecord/apple', { signedTransaction }, token);
  expect(answer.body.code, answer.text).toBe(200);
  return answer.body.data as Posted;
};
const userState = async (id: number) => {
  const row = await db()
    .selectFrom('users')
    // VIP is per app: these purchases are the default app's (tailor).
    .leftJoin('vip_entitlements as v', (j) => j.onRef('v.user_id', '=', 'users.id').on('v.app', '=', 'tailor'))
    .select(['users.coins', 'v.expires_at as vip_expires_at'])
    .where('users.id', '=', id)
    .executeTakeFirstOrThrow();
  return { coins: Number(row.coins), vip: row.vip_expires_at === null ? null : Number(row.vip_expires_at) };
};
const notify = async (type: string, tx: object, uuid = randomUUID()) => {
  const signedPayload = chain.sign({
    notificationType: type,
    notificationUUID: uuid,
    version: '2.0',
    signedDate: Date.now(),
    data: { bundleId, appAppleId: 1234, environment: 'Sandbox', signedTransactionInfo: chain.sign(tx) },
  });
  const answer = await server.call('/api/iaprecord/apple/notify', { signedPayload });
  expect(answer.body.code).toBe(200);
  return answer.body.data as { status: string; reason: string | null };
};

describe('StoreKit 2 receipts', () => {
  it('a signed transaction posted twice grants once; its REFUND notification takes the grant back once', async () => {
    const user = await appUser();
    const tx = transaction();
    const signed = chain.sign(tx);
    const first = await post(user.token, signed);
    expect(first).toMatchObject({ duplicate: false, record: { status: 'granted', coins: 100 } });
    const second = await post(user.token, signed);
    expect(second).toMatchObject({ duplicate: true, record: { id: first.record.id } });
    expect((await userState(user.id)).coins).toBe(100);
    const coinRecords = await db().selectFrom('coin_records').selectAll().where('user_id', '=', user.id).execute();
    expect(coinRecords.map((r) => [r.delta, r.reason, r.ref_id])).toEqual([[100, 'iap', `ios:${tx.transactionId}`]]);

    const uuid = randomUUID();
    expect(await notify('REFUND', { ...tx, revocationDate: Date.now() }, uuid)).toMatchObject({ status: 'applied' });
    expect(await notify('REFUND', { ...tx, revocationDate: Date.now() }, uuid)).toMatchObject({ status: 'duplicate' });
    // Another notification about the same refund finds nothing left to take back.
    expect(await notify('REVOKE', { ...tx, revocationDate: Date.now() })).toMatchObject({ status: 'ignored' });
    expect((await userState(user.id)).coins).toBe(0);
    const detail = await server.call('/api/iaprecord/fetch/detail', { id: first.record.id }, admin);
    expect(detail.body.data).toMatchObject({
      record: { status: 'refunded' },
      payload: { transactionId: tx.transactionId, productId: tx.productId },
    });
    expect((detail.body.data as { notifications: unknown[] }).notifications).toHaveLength(2);
    // A refunded transaction posted again grants nothing.
    expect(await post(user.token, signed)).toMatchObject({ duplicate: true, record: { status: 'refunded' } });
    expect((await userState(user.id)).coins).toBe(0);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('20 concurrent posts of one transaction grant once', async () => {
    const user = await appUser();
    const signed = chain.sign(transaction({ productId: 'com.example.vip.month', type: 'Auto-Renewable Subscription' }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(user.token, signed)));
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.record.id)).size).toBe(1);
    const vip = await db().selectFrom('vip_records').selectAll().where('user_id', '=', user.id).execute();
    expect(vip).toHaveLength(1);
    expect(Number(vip[0].after_expires_at) - Date.now()).toBeGreaterThan(29 * DAY_MS);
  });

  it('a renewal (DID_RENEW) extends VIP once per renewal transaction', async () => {
    const user = await appUser();
    const original = transaction({ productId: 'com.example.vip.month' });
    await post(user.token, chain.sign(original));
    const afterFirst = (await userState(user.id)).vip as number;
    const renewal = transaction({ productId: 'com.example.vip.month', originalTransactionId: original.transactionId });
    const uuid = randomUUID();
    expect(await notify('DID_RENEW', renewal, uuid)).toMatchObject({ status: 'applied' });
    expect(await notify('DID_RENEW', renewal, uuid)).toMatchObject({ status: 'duplicate' });
    expect(await notify('DID_RENEW', renewal)).toMatchObject({ status: 'duplicate' });
    // The app posting the renewal it also saw changes nothing.
    expect(await post(user.token, chain.sign(renewal))).toMatchObject({ duplicate: true });
    expect((await userState(user.id)).vip).toBe(afterFirst + 30 * DAY_MS);
  });

  it('tampered, forged, wrong-bundle, expired-chain and unknown-product receipts are kept as rejected with the reason', async () => {
    const user = await appUser();
    const good = chain.sign(transaction());
    const [head, , signature] = good.split('.');
    const tampered = `${head}.${Buffer.from(JSON.stringify(transaction({ productId: 'com.example.coins.100' }))).toString('base64url')}.${signature}`;
    const cases: [string, string][] = [
      [tampered, '签名无效或证书链不受信任'],
      [chain.signWithWrongKey(transaction()), '签名无效或证书链不受信任'],
      [chain.sign(transaction({ bundleId: 'com.other.app' })), 'Bundle ID 或 App Apple ID 与配置不符'],
      [chain.signWithShortLivedLeaf(transaction({ signedDate: Date.now() + 3 * DAY_MS })), '证书无效或在签名时已过期'],
      [chain.sign(transaction({ productId: 'com.example.unknown' })), '未知的内购商品：com.example.unknown'],
      [chain.sign(transaction({ environment: 'Production' })), '不接受的交易环境：Production（已配置 Sandbox）'],
      ['not-a-jws', '签名数据格式不正确'],
    ];
    for (const [signed, reason] of cases) {
      const answer = await post(user.token, signed);
      expect(answer.record, reason).toMatchObject({ status: 'rejected', reason });
    }
    expect(await userState(user.id)).toEqual({ coins: 0, vip: null });
    const page = await server.call('/api/iaprecord/fetch/page', { status: 'rejected', phone: user.phone }, admin);
    expect((page.body.data as { total: number }).total).toBe(cases.length);
    const bad = await server.call('/api/iaprecord/apple/notify', { signedPayload: chain.signWithWrongKey({}) });
    expect(bad.body.data).toMatchObject({ status: 'rejected' });
  });

  it('Google Play purchases stay pending (once per token) with a clear status', async () => {
    const user = await appUser();
    const body = { productId: 'com.example.coins.100', purchaseToken: `tok-${randomUUID()}` };
    const first = await server.call('/api/iaprecord/google', body, user.token);
    expect(first.body.data).toMatchObject({ duplicate: false, record: { status: 'pending', platform: 'android' } });
    expect((first.body.data as Posted).record.reason).toContain('Google Play');
    const again = await server.call('/api/iaprecord/google', body, user.token);
    expect(again.body.data).toMatchObject({ duplicate: true });
    const page = await server.call('/api/iaprecord/fetch/page', { platform: 'android', phone: user.phone }, admin);
    expect((page.body.data as { total: number }).total).toBe(1);
    expect(await userState(user.id)).toEqual({ coins: 0, vip: null });
  });
});

describe('without App Store configuration', () => {
  it('a receipt is kept pending and says what to configure', async () => {
    const bare = await startServer({ payments: { apple: null, alipay: null, wechat: null } });
    try {
      await bare.initAdmin();
      const user = await bare.addUser();
      const token = await bare.login(user.phone, user.password);
      const answer = await bare.call('/api/iaprecord/apple', { signedTransaction: chain.sign(transaction()) }, token);
      expect(answer.body.data).toMatchObject({ record: { status: 'pending' } });
      // The operator reads what is missing in words; the README names the variables.
      expect((answer.body.data as Posted).record.reason).toContain('未配置 App Store 校验');
      expect((answer.body.data as Posted).record.reason).not.toMatch(/[A-Z]+_[A-Z]+/);
    } finally {
      await bare.close();
    }
  });
});
