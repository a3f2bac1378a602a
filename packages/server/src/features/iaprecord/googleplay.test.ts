import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlayFake, productPurchase, startPlayFake, subscriptionPurchase } from '../../../test/google-play';
import { startServer, type TestServer } from '../../../test/harness';
import { unreconciledUsers } from '../../core/ledger';
import { DAY_MS } from '../vip/public';

// Google Play verification through the Android Publisher client, against Google's endpoints
// played back on loopback (test/google-play.ts) with a service account key made by the test.
let play: PlayFake;
let server: TestServer;
let admin: string;
const pkg = 'com.appdesk.tailor';
const coins = 'com.example.play.coins100';
const lifetime = 'com.example.play.lifetime';
const monthly = 'com.example.play.vip.month';

beforeAll(async () => {
  play = await startPlayFake();
  server = await startServer({ payments: { apple: null, alipay: null, wechat: null, google: play.config } });
  admin = (await server.initAdmin()).token;
  const products = [
    { productId: coins, type: 'consumable', vipDays: 0, coins: 100 },
    { productId: lifetime, type: 'non_consumable', vipDays: 365, coins: 0 },
    { productId: monthly, type: 'subscription', vipDays: 30, coins: 0 },
  ];
  for (const p of products) {
    const made = await server.call('/api/iap/make', { platform: 'android', name: '商品', price: 600, ...p }, admin);
    expect(made.body.code, made.text).toBe(200);
  }
});
afterAll(async () => {
  await server?.close();
  await play?.close();
});

type Posted = {
  record: {
    id: number;
    status: string;
    reason: string | null;
    transactionId: string | null;
    environment: string | null;
  };
  duplicate: boolean;
};
const appUser = async () => {
  const user = await server.addUser();
  return { ...user, token: await server.login(user.phone, user.password) };
};
const post = async (token: string, productId: string, purchaseToken: string) => {
  const answer = await server.call('/api/iaprecord/google', { productId, purchaseToken }, token);
  expect(answer.body.code, answer.text).toBe(200);
  return answer.body.data as Posted;
};
const userState = async (id: number) => {
  const row = await server.app.services.db
    .selectFrom('users')
    // VIP is per app: these purchases are the default app's (tailor).
    .leftJoin('vip_entitlements as v', (j) => j.onRef('v.user_id', '=', 'users.id').on('v.app', '=', 'tailor'))
    .select(['users.coins', 'v.expires_at as vip_expires_at'])
    .where('users.id', '=', id)
    .executeTakeFirstOrThrow();
  return { coins: Number(row.coins), vip: row.vip_expires_at === null ? null : Number(row.vip_expires_at) };
};
const waitForCall = async (text: string) => {
  for (let i = 0; i < 100 && !play.calls.some((c) => c.includes(text)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return play.calls.filter((c) => c.includes(text)).length;
};

describe('Google Play verification', () => {
  it('says on the page that it is configured', async () => {
    const config = await server.call('/api/iaprecord/fetch/config', {}, admin);
    expect(config.body.data).toMatchObject({ google: true });
  });

  it('grants a verified consumable once, under its order id, and consumes it', async () => {
    const user = await appUser();
    const token = `play-${randomUUID()}`;
    const recorded = productPurchase({ purchaseType: 0 });
    play.products.set(token, recorded);
    const first = await post(user.token, coins, token);
    expect(first).toMatchObject({
      duplicate: false,
      record: { status: 'granted', transactionId: recorded.orderId, environment: 'Test' },
    });
    expect(await userState(user.id)).toMatchObject({ coins: 100 });
    expect(await waitForCall(`products/${coins}/tokens/${token}:consume`)).toBe(1);
    const again = await post(user.token, coins, token);
    expect(again).toMatchObject({ duplicate: true, record: { id: first.record.id } });
    expect(await userState(user.id)).toMatchObject({ coins: 100 });
    expect(play.calls.length).toBeGreaterThan(0);
    expect(play.calls.every((call) => call.includes(`/applications/${pkg}/purchases/`))).toBe(true);
    // The service account's signed assertion was accepted once and its access token reused.
    expect(play.tokenRequests).toBe(1);
  });

  it('grants once when the same purchase is posted 20 times at once', async () => {
    const user = await appUser();
    const token = `play-${randomUUID()}`;
    play.products.set(token, productPurchase({ acknowledgementState: 1 }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(user.token, lifetime, token)));
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.record.id)).size).toBe(1);
    const state = await userState(user.id);
    expect(state.vip).not.toBeNull();
    expect(Number(state.vip) - Date.now()).toBeGreaterThan(364 * DAY_MS);
    expect(Number(state.vip) - Date.now()).toBeLessThan(366 * DAY_MS);
    // Already acknowledged by the app: nothing to acknowledge.
    expect(play.calls.some((c) => c.includes(`${token}:acknowledge`))).toBe(false);
    expect(await unreconciledUsers(server.app.services.db)).toEqual([]);
  });

  it('extends VIP once per subscription order, renewals included, and acknowledges it', async () => {
    const user = await appUser();
    const token = `play-${randomUUID()}`;
    play.subscriptions.set(token, subscriptionPurchase(monthly, 'GPA.1111-2222-3333-44444', Date.now() + 30 * DAY_MS));
    const first = await post(user.token, monthly, token);
    expect(first.record).toMatchObject({ status: 'granted', transactionId: 'GPA.1111-2222-3333-44444' });
    const afterFirst = Number((await userState(user.id)).vip);
    expect(await waitForCall(`subscriptions/${monthly}/tokens/${token}:acknowledge`)).toBe(1);
    expect((await post(user.token, monthly, token)).duplicate).toBe(true);
    expect(Number((await userState(user.id)).vip)).toBe(afterFirst);
    // Renewed: the same token, a new order id ("..0").
    play.subscriptions.set(
      token,
      subscriptionPurchase(monthly, 'GPA.1111-2222-3333-44444..0', Date.now() + 60 * DAY_MS, {
        acknowledgementState: 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED',
      }),
    );
    const renewal = await post(user.token, monthly, token);
    expect(renewal).toMatchObject({ duplicate: false, record: { transactionId: 'GPA.1111-2222-3333-44444..0' } });
    expect(Number((await userState(user.id)).vip) - afterFirst).toBe(30 * DAY_MS);
  });

  it('refuses what Google does not confirm, with the reason, and grants nothing', async () => {
    const user = await appUser();
    const unknownToken = `play-${randomUUID()}`;
    const unknown = await post(user.token, coins, unknownToken);
    // A refusal shows the token it claimed, and holds no order id.
    expect(unknown.record).toMatchObject({ status: 'rejected', transactionId: unknownToken });
    expect(unknown.record.reason).toContain('找不到这笔购买');

    const cancelled = `play-${randomUUID()}`;
    play.products.set(cancelled, productPurchase({ purchaseState: 1 }));
    expect((await post(user.token, coins, cancelled)).record).toMatchObject({
      status: 'rejected',
      reason: '该购买已取消',
    });

    const other = `play-${randomUUID()}`;
    play.products.set(other, productPurchase({ productId: lifetime }));
    expect((await post(user.token, coins, other)).record.reason).toContain('不符');

    const callsBefore = play.calls.length;
    const notOurs = await post(user.token, 'com.example.not.a.product', `play-${randomUUID()}`);
    expect(notOurs.record).toMatchObject({ status: 'rejected', reason: '未知的内购商品：com.example.not.a.product' });
    expect(play.calls.length).toBe(callsBefore);

    const expired = `play-${randomUUID()}`;
    play.subscriptions.set(
      expired,
      subscriptionPurchase(monthly, 'GPA.9-9-9', Date.now() - DAY_MS, {
        subscriptionState: 'SUBSCRIPTION_STATE_EXPIRED',
      }),
    );
    expect((await post(user.token, monthly, expired)).record.status).toBe('rejected');
    expect(await userState(user.id)).toEqual({ coins: 0, vip: null });
  });

  it('keeps a purchase pending while it cannot be confirmed, and grants it when posted again', async () => {
    const user = await appUser();
    const token = `play-${randomUUID()}`;
    play.failures.set(token, 503);
    const outage = await post(user.token, coins, token);
    expect(outage.record).toMatchObject({ status: 'pending', transactionId: token });
    expect(outage.record.reason).toContain('HTTP 503');
    play.failures.delete(token);
    play.products.set(token, productPurchase({ purchaseState: 2 }));
    const unpaid = await post(user.token, coins, token);
    expect(unpaid.record).toMatchObject({ status: 'pending' });
    expect(unpaid.record.reason).toContain('待付款');
    expect(await userState(user.id)).toMatchObject({ coins: 0 });
    play.products.set(token, productPurchase());
    const paid = await post(user.token, coins, token);
    expect(paid.record).toMatchObject({ status: 'granted' });
    expect(await userState(user.id)).toMatchObject({ coins: 100 });
    const page = await server.call('/api/iaprecord/fetch/page', { platform: 'android', phone: user.phone }, admin);
    expect((page.body.data as { total: number }).total).toBe(3);
  });
});
