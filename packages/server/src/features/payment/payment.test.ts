import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { alipayBody, alipayFields, makePaymentKeys, strangerKey, wechatCallback } from '../../../test/payment-signers';
import { unreconciledUsers } from '../../core/ledger';

// The platforms' keys are the test's own: it signs as Alipay and WeChat Pay would.
const keys = makePaymentKeys();

let server: TestServer;
let admin: string;
let planId: number;
beforeAll(async () => {
  server = await startServer({
    payments: {
      apple: null,
      alipay: { appId: keys.alipayAppId, publicKey: keys.alipayPublicKey },
      wechat: {
        mchId: keys.wechatMchId,
        apiV3Key: keys.wechatApiV3Key,
        platformPublicKey: keys.wechatPublicKey,
        platformSerial: keys.wechatSerial,
      },
    },
  });
  admin = (await server.initAdmin()).token;
  const plan = await server.call(
    '/api/plan/make',
    { name: '月度会员', price: 1800, durationDays: 30, bonusCoins: 100, onSale: true },
    admin,
  );
  planId = (plan.body.data as { plan: { id: number } }).plan.id;
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const newOrder = async (payMethod: 'alipay' | 'wechat') => {
  const user = await server.addUser();
  const token = await server.login(user.phone, user.password);
  const made = await server.call('/api/order/make', { planId, payMethod }, token);
  const order = (made.body.data as { order: { id: number; orderNo: string } }).order;
  return { user, order };
};
const state = async (userId: number, orderId: number) => {
  const user = await db().selectFrom('users').select(['coins']).where('id', '=', userId).executeTakeFirstOrThrow();
  const order = await db()
    .selectFrom('orders')
    .select(['status', 'transaction_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const vip = await db().selectFrom('vip_records').select('id').where('user_id', '=', userId).execute();
  return {
    coins: Number(user.coins),
    status: order.status,
    transactionId: order.transaction_id,
    vipChanges: vip.length,
  };
};
const notifications = (orderNo: string) =>
  db()
    .selectFrom('payment_notifications')
    .select(['status', 'reason'])
    .where('order_no', '=', orderNo)
    .orderBy('id')
    .execute();

const alipay = (orderNo: string, amount = '18.00', key = keys.alipayPrivateKey) =>
  alipayBody(alipayFields(keys, orderNo, amount), key);
const postAlipay = (body: string) =>
  fetch(`${server.url}/api/payment/alipay/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
  }).then(async (r) => ({ status: r.status, text: await r.text() }));

const wechat = (orderNo: string, total = 1800, key = keys.wechatPrivateKey) =>
  wechatCallback(keys, orderNo, total, key);
const postWechat = (c: { body: string; headers: Record<string, string> }) =>
  fetch(`${server.url}/api/payment/wechat/notify`, { method: 'POST', headers: c.headers, body: c.body }).then(
    async (r) => ({ status: r.status, text: await r.text() }),
  );

describe('Alipay notifications', () => {
  it('pay their order once under 20 concurrent replays; every copy answers success', async () => {
    const { user, order } = await newOrder('alipay');
    const body = alipay(order.orderNo);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postAlipay(body)));
    expect(answers.map((a) => a.text)).toEqual(Array(20).fill('success'));
    expect(await postAlipay(body)).toMatchObject({ text: 'success' });
    expect(await state(user.id, order.id)).toEqual({
      coins: 100,
      status: 'paid',
      transactionId: `2026112322001${order.orderNo.slice(-8)}`,
      vipChanges: 1,
    });
    const kept = await notifications(order.orderNo);
    expect(kept.filter((n) => n.status === 'applied')).toHaveLength(1);
    expect(kept.filter((n) => n.status === 'duplicate')).toHaveLength(20);
    const detail = await server.call('/api/order/fetch/detail', { id: order.id }, admin);
    const events = (detail.body.data as { events: { kind: string; detail: { method?: string } | null }[] }).events;
    expect(events.map((e) => e.kind)).toEqual(['created', 'paid', 'granted']);
    expect(events[1].detail?.method).toBe('alipay');
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('a wrong signature or amount is rejected with the reason and changes nothing', async () => {
    const { user, order } = await newOrder('alipay');
    expect(await postAlipay(alipay(order.orderNo, '18.00', strangerKey()))).toMatchObject({ text: 'fail' });
    expect(await postAlipay(alipay(order.orderNo, '0.01'))).toMatchObject({ text: 'fail' });
    const tampered = alipay(order.orderNo).replace('total_amount=18.00', 'total_amount=0.01');
    expect(await postAlipay(tampered)).toMatchObject({ text: 'fail' });
    expect(await state(user.id, order.id)).toMatchObject({ coins: 0, status: 'pending', vipChanges: 0 });
    expect((await notifications(order.orderNo)).map((n) => n.reason)).toEqual([
      '支付宝签名验证失败',
      '金额不符：通知 1 分，订单 1800 分',
      '支付宝签名验证失败',
    ]);
  });
});

describe('WeChat Pay v3 callbacks', () => {
  it('pay their order once under 20 concurrent replays; every copy answers 204', async () => {
    const { user, order } = await newOrder('wechat');
    const callback = wechat(order.orderNo);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postWechat(callback)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(204));
    expect(await state(user.id, order.id)).toMatchObject({ coins: 100, status: 'paid', vipChanges: 1 });
    expect((await notifications(order.orderNo)).filter((n) => n.status === 'applied')).toHaveLength(1);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('a wrong signature, amount or key is rejected with the reason and changes nothing', async () => {
    const { user, order } = await newOrder('wechat');
    const forged = await postWechat(wechat(order.orderNo, 1800, strangerKey()));
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.text)).toMatchObject({ code: 'FAIL' });
    expect((await postWechat(wechat(order.orderNo, 1))).status).toBe(400);
    const good = wechat(order.orderNo);
    expect((await postWechat({ ...good, body: good.body.replace('支付成功', '支付成功!') })).status).toBe(400);
    expect(await state(user.id, order.id)).toMatchObject({ coins: 0, status: 'pending', vipChanges: 0 });
    expect((await notifications(order.orderNo)).map((n) => n.reason)).toEqual(['金额不符：通知 1 分，订单 1800 分']);
    const rejected = await server.call('/api/payment/fetch/page', { method: 'wechat', status: 'rejected' }, admin);
    expect((rejected.body.data as { total: number }).total).toBeGreaterThanOrEqual(3);
  });
});

describe('without merchant keys', () => {
  it('the methods are off: notifications are refused without a write and the console says so', async () => {
    const bare = await startServer({ payments: { apple: null, alipay: null, wechat: null } });
    try {
      const token = (await bare.initAdmin()).token;
      const config = await bare.call('/api/payment/fetch/config', {}, token);
      expect(config.body.data).toEqual({ alipay: false, wechat: false });
      const answer = await fetch(`${bare.url}/api/payment/alipay/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: alipay('20261123000000000001'),
      });
      expect(await answer.text()).toBe('fail');
      const callback = wechat('20261123000000000001');
      const refused = await fetch(`${bare.url}/api/payment/wechat/notify`, { method: 'POST', ...callback });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        code: 'FAIL',
        message: '微信支付未配置（WECHATPAY_*），通知一律拒绝',
      });
      // Nobody is meant to post to a method that is off: nothing is written for it.
      expect(await bare.app.services.db.selectFrom('payment_notifications').selectAll().execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
