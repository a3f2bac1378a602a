/**
 * VIP is per app (issue 29): a user may be VIP in 滚动截屏 (tailor) and not in 名言 (quote). Grants
 * name their app (the console's, an order's), a session answers its own app's VIP, and the users
 * list and the dashboard's figure read the same per-app expiries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, nextPhone, startServer, type TestServer } from '../../../test/harness';
import { unreconciledUsers } from '../../core/ledger';
import { applyGrant, DAY_MS, takeBackGrant, vipCount } from './public';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  await ok('/api/apps/make', { code: 'quote', name: '名言' });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Me = { token: string; user: { id: number; vipExpiresAt: string | null } };
const expiryOf = async (id: number, app: string) => {
  const row = await db()
    .selectFrom('vip_entitlements')
    .select('expires_at')
    .where('user_id', '=', id)
    .where('app', '=', app)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.expires_at);
};
const vipOf = async (token: string, body: object = {}) =>
  (await ok<Me>('/api/users/fetch/info', body, token)).user.vipExpiresAt;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** An app user who registered in `app`, signed in there. */
const register = async (app: string) => {
  const phone = nextPhone();
  const password = await digest('User12345');
  const me = await ok<Me>('/api/users/register', { phone, password, app, channel: 'huawei' });
  return { id: me.user.id, phone, password, token: me.token, registered: me.user };
};

describe('VIP per app', () => {
  it('a user VIP in tailor is not VIP in quote; each session answers its own app', async () => {
    const user = await register('quote');
    expect(user.registered.vipExpiresAt).toBeNull();
    await ok('/api/vip/update', { id: user.id, app: 'tailor', days: 30, reason: '客服补偿' });
    const tailor = (await expiryOf(user.id, 'tailor')) as number;
    expect(tailor).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    expect(await expiryOf(user.id, 'quote')).toBeNull();

    // The registration's session is quote's: no VIP there. Asked about tailor, it says so.
    expect(await vipOf(user.token)).toBeNull();
    expect(await vipOf(user.token, { app: 'tailor' })).toBe(iso(tailor));
    // A sign-in without an app (the apps of before, the console) is the default app's.
    const old = await ok<Me>('/api/users/login', { phone: user.phone, password: user.password });
    expect(old.user.vipExpiresAt).toBe(iso(tailor));
    expect(await vipOf(old.token)).toBe(iso(tailor));
    const quote = await ok<Me>('/api/users/login', { phone: user.phone, password: user.password, app: 'quote' });
    expect(quote.user.vipExpiresAt).toBeNull();
    expect(await vipOf(quote.token)).toBeNull();
    const sessions = await db()
      .selectFrom('sessions')
      .select('app')
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(sessions.map((s) => s.app)).toEqual(['quote', 'tailor', 'quote']);
    // The account's own list and 在线用户 say which app each session is in.
    const mine = await ok<{ list: { app: string; current: boolean }[] }>('/api/sessions/fetch/mine', {}, quote.token);
    expect(mine.list.find((s) => s.current)?.app).toBe('quote');
    const live = await ok<{ list: { app: string }[] }>('/api/sessions/fetch/page', { userId: user.id });
    expect(live.list.map((s) => s.app).sort()).toEqual(['quote', 'quote', 'tailor']);

    const unknown = await server.call('/api/users/login', { phone: user.phone, password: user.password, app: 'nope' });
    expect([unknown.body.code, unknown.body.message]).toEqual([400, '未知的应用：nope']);
  });

  it('the console grants and takes back per app; the detail, the list and the history say which app', async () => {
    const user = await register('quote');
    await ok('/api/vip/update', { id: user.id, app: 'quote', days: 10, reason: '活动赠送' });
    const quote = (await expiryOf(user.id, 'quote')) as number;
    expect(await expiryOf(user.id, 'tailor')).toBeNull();
    // Taking back from an app the user has no time in is refused, even with time in another.
    const none = await server.call('/api/vip/update', { id: user.id, app: 'tailor', days: -3, reason: '收回' }, admin);
    expect(none.body).toMatchObject({ code: 409, message: '该用户没有剩余的会员时长可以收回' });
    await ok('/api/vip/update', { id: user.id, app: 'tailor', days: 5, reason: '补偿' });
    const tailor = (await expiryOf(user.id, 'tailor')) as number;
    await ok('/api/vip/update', { id: user.id, app: 'quote', days: -3, reason: '误操作收回' });
    expect(await expiryOf(user.id, 'quote')).toBe(quote - 3 * DAY_MS);
    expect(await expiryOf(user.id, 'tailor')).toBe(tailor);

    const detail = await ok<{ user: { vipExpiresAt: string }; vips: { app: string; expiresAt: string }[] }>(
      '/api/users/fetch/detail',
      { id: user.id },
    );
    expect(detail.vips).toEqual([
      { app: 'quote', expiresAt: iso(quote - 3 * DAY_MS) },
      { app: 'tailor', expiresAt: iso(tailor) },
    ]);
    expect(detail.user.vipExpiresAt).toBe(iso(Math.max(quote - 3 * DAY_MS, tailor)));

    const history = await ok<{ list: { app: string; days: number }[]; total: number }>('/api/vip/fetch/page', {
      userId: user.id,
      app: 'quote',
    });
    expect(history.list.map((r) => [r.app, r.days])).toEqual([
      ['quote', -3],
      ['quote', 10],
    ]);
    const log = await db()
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'vip.update')
      .where('target_id', '=', String(user.id))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(log.after ?? '{}')).toMatchObject({ app: 'quote', days: -3 });
    expect((await server.call('/api/vip/update', { id: user.id, days: 5, reason: '无应用' }, admin)).body.code).toBe(
      400,
    );
  });

  it('the users list’s VIP filter and column mean the listed app, or any app', async () => {
    const quoteOnly = await register('quote');
    const tailorOnly = await register('quote');
    await ok('/api/vip/update', { id: quoteOnly.id, app: 'quote', days: 3, reason: '名言会员' });
    await ok('/api/vip/update', { id: tailorOnly.id, app: 'tailor', days: 7, reason: '滚动截屏会员' });
    type Row = { id: number; vipExpiresAt: string | null };
    const list = async (filter: object) =>
      (await ok<{ list: Row[] }>('/api/users/fetch/page', { size: 100, ...filter })).list.filter((u) =>
        [quoteOnly.id, tailorOnly.id].includes(u.id),
      );
    const ids = async (filter: object) => (await list(filter)).map((u) => u.id).sort((a, b) => a - b);
    expect(await ids({ app: 'quote', vip: 'active' })).toEqual([quoteOnly.id]);
    expect(await ids({ app: 'quote', vip: 'never' })).toEqual([tailorOnly.id]);
    expect(await ids({ vip: 'active' })).toEqual([quoteOnly.id, tailorOnly.id]);
    expect(await ids({ vip: 'never' })).toEqual([]);
    const column = await list({ app: 'quote' });
    expect(column.find((u) => u.id === tailorOnly.id)?.vipExpiresAt).toBeNull();
    expect(column.find((u) => u.id === quoteOnly.id)?.vipExpiresAt).toBe(iso(await expiryOf(quoteOnly.id, 'quote')));
    const any = await list({});
    expect(any.find((u) => u.id === tailorOnly.id)?.vipExpiresAt).toBe(iso(await expiryOf(tailorOnly.id, 'tailor')));
  });

  it('an order of a quote plan extends quote only, and its refund takes back from quote', async () => {
    const { plan } = await ok<{ plan: { id: number } }>('/api/plan/make', {
      app: 'quote',
      name: '名言月卡',
      price: 1200,
      durationDays: 30,
      bonusCoins: 5,
      onSale: true,
    });
    const user = await register('quote');
    await ok('/api/vip/update', { id: user.id, app: 'tailor', days: 2, reason: '滚动截屏会员' });
    const tailor = await expiryOf(user.id, 'tailor');
    const { order } = await ok<{ order: { id: number } }>(
      '/api/order/make',
      { planId: plan.id, payMethod: 'alipay', channel: 'huawei' },
      user.token,
    );
    await ok('/api/order/pay', { id: order.id, note: '已到账' });
    const quote = (await expiryOf(user.id, 'quote')) as number;
    expect(quote).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    expect(await expiryOf(user.id, 'tailor')).toBe(tailor);
    expect(await vipOf(user.token)).toBe(iso(quote));
    const records = await db()
      .selectFrom('vip_records')
      .select(['app', 'reason'])
      .where('user_id', '=', user.id)
      .execute();
    expect(records).toContainEqual({ app: 'quote', reason: 'order' });

    await ok('/api/order/refund', { id: order.id, note: '用户申请退款' });
    expect(await expiryOf(user.id, 'quote')).toBeLessThanOrEqual(Date.now());
    expect(await expiryOf(user.id, 'tailor')).toBe(tailor);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('a purchase’s grant and its take-back change the purchase’s app only (as an in-app receipt of quote)', async () => {
    const user = await register('quote');
    await ok('/api/vip/update', { id: user.id, app: 'tailor', days: 4, reason: '滚动截屏会员' });
    const tailor = await expiryOf(user.id, 'tailor');
    const grant = {
      userId: user.id,
      app: 'quote',
      days: 30,
      coins: 10,
      source: 'iap' as const,
      refId: `ios:q-${user.id}`,
    };
    const granted = await db()
      .transaction()
      .execute((trx) => applyGrant(trx, grant));
    expect(granted.vip?.before).toBeNull();
    const quote = (await expiryOf(user.id, 'quote')) as number;
    expect(quote).toBe(granted.vip?.after);
    expect(quote).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    expect(await expiryOf(user.id, 'tailor')).toBe(tailor);
    // The same receipt grants once.
    await expect(
      db()
        .transaction()
        .execute((trx) => applyGrant(trx, grant)),
    ).rejects.toThrow();
    const back = await db()
      .transaction()
      .execute((trx) => takeBackGrant(trx, grant));
    expect(back).toMatchObject({ coinsTaken: 10, coinsNotTaken: 0 });
    expect(await expiryOf(user.id, 'quote')).toBeLessThanOrEqual(Date.now());
    expect(await expiryOf(user.id, 'tailor')).toBe(tailor);
  });

  it('counts live entitlements per app; across apps the sum of the apps’', async () => {
    const now = Date.now();
    const [all, tailor, quote] = await Promise.all([
      vipCount(db(), undefined, now),
      vipCount(db(), 'tailor', now),
      vipCount(db(), 'quote', now),
    ]);
    expect(quote).toBeGreaterThan(0);
    expect(tailor).toBeGreaterThan(0);
    expect(all).toBe(tailor + quote);
    const user = await register('quote');
    await ok('/api/vip/update', { id: user.id, app: 'quote', days: 1, reason: '一天' });
    await ok('/api/vip/update', { id: user.id, app: 'tailor', days: 1, reason: '一天' });
    expect(await vipCount(db(), 'quote', Date.now())).toBe(quote + 1);
    expect(await vipCount(db(), undefined, Date.now())).toBe(all + 2);
  });
});
