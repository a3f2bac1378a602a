/**
 * Payment notifications per app (issue 29, done-when 2): each is verified with the settings of the
 * app it names and pays only that app's orders. `tailor` keeps its settings in the environment;
 * `quote` is registered through the console, its WeChat Pay APIv3 key sealed with a test key.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { alipayBody, alipayFields, makePaymentKeys, wechatCallback } from '../../../test/payment-signers';
import { unreconciledUsers } from '../../core/ledger';
import { secretKeysFromEnv } from '../../core/secret-box';

const tailorKeys = makePaymentKeys();
const quoteKeys = makePaymentKeys({
  alipayAppId: '2021000000000002',
  wechatMchId: '1900000002',
  wechatAppId: 'wx0000000000000002',
  wechatSerial: 'SERIAL02',
});
/** Alipay's console shows a public key as bare Base64: the console takes it so. */
const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '');

let server: TestServer;
let admin: string;
const plans: Record<string, number> = {};
beforeAll(async () => {
  server = await startServer({
    secretKeys: secretKeysFromEnv({ APPDESK_SECRETS_KEY: randomBytes(32).toString('base64') }),
    payments: {
      apple: null,
      alipay: { appId: tailorKeys.alipayAppId, publicKey: tailorKeys.alipayPublicKey },
      wechat: {
        mchId: tailorKeys.wechatMchId,
        apiV3Key: tailorKeys.wechatApiV3Key,
        platformPublicKey: tailorKeys.wechatPublicKey,
        platformSerial: tailorKeys.wechatSerial,
      },
    },
  });
  admin = (await server.initAdmin()).token;
  const made = await server.call(
    '/api/apps/make',
    {
      code: 'quote',
      name: '名言',
      iosBundleId: 'com.appdesk.quote',
      alipayAppId: quoteKeys.alipayAppId,
      alipayPublicKey: bare(quoteKeys.alipayPublicKey),
      wechatMchId: quoteKeys.wechatMchId,
      wechatAppId: quoteKeys.wechatAppId,
      wechatPlatformPublicKey: quoteKeys.wechatPublicKey,
      wechatPlatformSerial: quoteKeys.wechatSerial,
    },
    admin,
  );
  expect([made.body.code, made.body.message]).toEqual([200, made.body.message]);
  const quoteId = (made.body.data as { app: { id: number } }).app.id;
  const secret = await server.call(
    '/api/apps/secret/set',
    { id: quoteId, kind: 'wechatApiV3Key', value: quoteKeys.wechatApiV3Key },
    admin,
  );
  expect(secret.body.code).toBe(200);
  const bareApp = await server.call('/api/apps/make', { code: 'poster', name: '海报' }, admin);
  expect(bareApp.body.code).toBe(200);
  for (const app of ['tailor', 'quote']) {
    const plan = await server.call(
      '/api/plan/make',
      { app, name: '月度会员', price: 1800, durationDays: 30, bonusCoins: 100, onSale: true },
      admin,
    );
    plans[app] = (plan.body.data as { plan: { id: number } }).plan.id;
  }
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const newOrder = async (app: 'tailor' | 'quote', payMethod: 'alipay' | 'wechat') => {
  const user = await server.addUser();
  const token = await server.login(user.phone, user.password);
  const made = await server.call('/api/order/make', { planId: plans[app], payMethod }, token);
  const order = (made.body.data as { order: { id: number; orderNo: string; app: string } }).order;
  expect(order.app).toBe(app);
  return { user, order };
};
const state = async (userId: number, orderId: number) => {
  const user = await db().selectFrom('users').select(['coins']).where('id', '=', userId).executeTakeFirstOrThrow();
  const order = await db().selectFrom('orders').select(['status']).where('id', '=', orderId).executeTakeFirstOrThrow();
  return { coins: Number(user.coins), status: order.status };
};
const notifications = (orderNo: string) =>
  db()
    .selectFrom('payment_notifications')
    .select(['status', 'reason'])
    .where('order_no', '=', orderNo)
    .orderBy('id')
    .execute();
/** The refused notifications kept without an order (those whose signature did not verify, by their reason). */
const refusedWith = async (reason: string) =>
  (await db().selectFrom('payment_notifications').select('reason').where('status', '=', 'rejected').execute()).filter(
    (n) => n.reason === reason,
  ).length;

type Keys = typeof tailorKeys;
/** An Alipay notification naming `named`'s app id, signed with `signer`'s key. */
const alipay = (orderNo: string, named: Keys, signer: Keys = named) =>
  alipayBody(alipayFields(named, orderNo, '18.00'), signer.alipayPrivateKey);
const postAlipay = (body: string) =>
  fetch(`${server.url}/api/payment/alipay/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
  }).then((r) => r.text());
const postWechat = (c: { body: string; headers: Record<string, string> }) =>
  fetch(`${server.url}/api/payment/wechat/notify`, { method: 'POST', headers: c.headers, body: c.body }).then(
    async (r) => ({ status: r.status, text: await r.text() }),
  );

describe('Alipay notifications per app', () => {
  it("quote's app id pays a quote order once, however often it is replayed", async () => {
    const { user, order } = await newOrder('quote', 'alipay');
    const body = alipay(order.orderNo, quoteKeys);
    const answers = await Promise.all(Array.from({ length: 10 }, () => postAlipay(body)));
    expect(answers).toEqual(Array(10).fill('success'));
    expect(await postAlipay(body)).toBe('success');
    expect(await state(user.id, order.id)).toEqual({ coins: 100, status: 'paid' });
    const kept = await notifications(order.orderNo);
    expect(kept.filter((n) => n.status === 'applied')).toHaveLength(1);
    expect(kept.filter((n) => n.status === 'duplicate')).toHaveLength(10);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it("one signed with tailor's key for quote's app id is refused and recorded as refused; nothing is paid", async () => {
    const { user, order } = await newOrder('quote', 'alipay');
    const before = await refusedWith('支付宝签名验证失败');
    expect(await postAlipay(alipay(order.orderNo, quoteKeys, tailorKeys))).toBe('fail');
    expect(await state(user.id, order.id)).toEqual({ coins: 0, status: 'pending' });
    expect(await refusedWith('支付宝签名验证失败')).toBe(before + 1);
    // Quote's own key still pays it: the refusal changed nothing.
    expect(await postAlipay(alipay(order.orderNo, quoteKeys))).toBe('success');
    expect(await state(user.id, order.id)).toEqual({ coins: 100, status: 'paid' });
  });

  it("a valid notification naming tailor's app id cannot pay a quote order, nor quote's a tailor order", async () => {
    const quote = await newOrder('quote', 'alipay');
    expect(await postAlipay(alipay(quote.order.orderNo, tailorKeys))).toBe('fail');
    expect(await state(quote.user.id, quote.order.id)).toEqual({ coins: 0, status: 'pending' });
    expect(await notifications(quote.order.orderNo)).toEqual([
      { status: 'rejected', reason: '订单属于应用「名言」，通知来自应用「滚动截屏」的商户设置' },
    ]);
    const tailor = await newOrder('tailor', 'alipay');
    expect(await postAlipay(alipay(tailor.order.orderNo, quoteKeys))).toBe('fail');
    expect(await state(tailor.user.id, tailor.order.id)).toEqual({ coins: 0, status: 'pending' });
    // Tailor's own settings, from the environment, pay it as before.
    expect(await postAlipay(alipay(tailor.order.orderNo, tailorKeys))).toBe('success');
    expect(await state(tailor.user.id, tailor.order.id)).toEqual({ coins: 100, status: 'paid' });
  });

  it('an app id no app has is refused without paying', async () => {
    const { user, order } = await newOrder('quote', 'alipay');
    const stranger = { ...quoteKeys, alipayAppId: '2021000000000099' };
    expect(await postAlipay(alipay(order.orderNo, stranger, quoteKeys))).toBe('fail');
    expect(await state(user.id, order.id)).toEqual({ coins: 0, status: 'pending' });
    expect(await refusedWith('应用 ID 不符：2021000000000099')).toBe(1);
  });
});

describe('orders per app', () => {
  it("an app that names itself orders only its own plans; the order is the plan's app's", async () => {
    const user = await server.addUser();
    const token = await server.login(user.phone, user.password);
    const make = (app: string, planId: number) =>
      server.call('/api/order/make', { app, planId, payMethod: 'alipay' }, token);
    const foreign = await make('tailor', plans.quote);
    expect([foreign.body.code, foreign.body.message]).toEqual([404, '会员套餐不存在']);
    const own = await make('quote', plans.quote);
    expect((own.body.data as { order: { app: string } }).order.app).toBe('quote');
  });
});

describe('WeChat Pay callbacks per app', () => {
  it("quote's callback, decrypted with its sealed APIv3 key, pays a quote order once", async () => {
    const { user, order } = await newOrder('quote', 'wechat');
    const callback = wechatCallback(quoteKeys, order.orderNo, 1800);
    const answers = await Promise.all(Array.from({ length: 10 }, () => postWechat(callback)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(204));
    expect(await state(user.id, order.id)).toEqual({ coins: 100, status: 'paid' });
    expect((await notifications(order.orderNo)).filter((n) => n.status === 'applied')).toHaveLength(1);
  });

  it("tailor's callback cannot pay a quote order; quote's platform key under tailor's serial is refused", async () => {
    const { user, order } = await newOrder('quote', 'wechat');
    const crossed = await postWechat(wechatCallback(tailorKeys, order.orderNo, 1800));
    expect(crossed.status).toBe(400);
    expect(JSON.parse(crossed.text)).toMatchObject({
      code: 'FAIL',
      message: '订单属于应用「名言」，通知来自应用「滚动截屏」的商户设置',
    });
    // Signed with quote's platform key but naming tailor's certificate: tailor's key does not verify it.
    const posing = wechatCallback({ ...quoteKeys, wechatSerial: tailorKeys.wechatSerial }, order.orderNo, 1800);
    const refused = await postWechat(posing);
    expect([refused.status, JSON.parse(refused.text).message]).toEqual([400, '微信支付签名验证失败']);
    // A transaction of another AppID under quote's merchant is not quote's.
    const otherApp = wechatCallback({ ...quoteKeys, wechatAppId: 'wx00000000000000ff' }, order.orderNo, 1800);
    const wrongApp = await postWechat(otherApp);
    expect([wrongApp.status, JSON.parse(wrongApp.text).message]).toEqual([400, '应用 AppID 不符：wx00000000000000ff']);
    expect(await state(user.id, order.id)).toEqual({ coins: 0, status: 'pending' });
  });
});

describe('the console asks per app which methods are configured', () => {
  it('tailor from the environment, quote from its settings, an app without settings has none', async () => {
    const config = async (app?: string) =>
      (await server.call('/api/payment/fetch/config', app ? { app } : {}, admin)).body.data;
    expect(await config()).toEqual({ alipay: true, wechat: true });
    expect(await config('quote')).toEqual({ alipay: true, wechat: true });
    expect(await config('poster')).toEqual({ alipay: false, wechat: false });
    const unknown = await server.call('/api/payment/fetch/config', { app: 'nosuchapp' }, admin);
    expect([unknown.body.code, unknown.body.message]).toEqual([400, '未知的应用：nosuchapp']);
  });

  it("lists one app's notifications by the switcher: those its settings verified", async () => {
    const list = async (app?: string) => {
      const answer = await server.call('/api/payment/fetch/page', { ...(app ? { app } : {}), size: 100 }, admin);
      return (answer.body.data as { list: { app: string | null; status: string }[] }).list;
    };
    const quote = await list('quote');
    expect(quote.length).toBeGreaterThan(0);
    expect(new Set(quote.map((n) => n.app))).toEqual(new Set(['quote']));
    const tailor = await list('tailor');
    expect(new Set(tailor.map((n) => n.app))).toEqual(new Set(['tailor']));
    // A notification that did not verify belongs to no app: listed only under 全部应用.
    const all = await list();
    expect(all.filter((n) => n.app === null).every((n) => n.status === 'rejected')).toBe(true);
    expect(all.length).toBe(quote.length + tailor.length + all.filter((n) => n.app === null).length);
  });
});
