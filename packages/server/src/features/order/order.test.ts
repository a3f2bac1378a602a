import { VIP_LIFETIME_MS } from '@appdesk/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { unreconciledUsers } from '../../core/ledger';
import { DAY_MS } from '../vip/public';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Order = { id: number; orderNo: string; amount: number; status: string; userPhone: string };
const db = () => server.app.services.db;
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const makePlan = (body: Record<string, unknown> = {}) =>
  ok<{ plan: { id: number } }>('/api/plan/make', {
    name: '月度会员',
    price: 1800,
    durationDays: 30,
    bonusCoins: 100,
    onSale: true,
    ...body,
  }).then((d) => d.plan.id);
const appUser = async () => {
  const user = await server.addUser();
  return { ...user, token: await server.login(user.phone, user.password) };
};
const order = (token: string, planId: number, body: Record<string, unknown> = {}) =>
  ok<{ order: Order }>('/api/order/make', { planId, payMethod: 'alipay', channel: 'huawei', ...body }, token).then(
    (d) => d.order,
  );
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

describe('orders', () => {
  it('copy the plan’s price when made; a later price change never alters them', async () => {
    const planId = await makePlan({ price: 2500 });
    const user = await appUser();
    const first = await order(user.token, planId);
    expect(first).toMatchObject({ amount: 2500, status: 'pending' });
    expect(first.orderNo).toMatch(/^\d{20}$/);
    expect(first.userPhone).toMatch(/^\d{3}\*{4}\d{4}$/);
    await ok('/api/plan/update', { id: planId, price: 3000 });
    const detail = await ok<{ order: Order }>('/api/order/fetch/detail', { id: first.id });
    expect(detail.order.amount).toBe(2500);
    expect((await order(user.token, planId)).amount).toBe(3000);

    await ok('/api/plan/update', { id: planId, onSale: false });
    const off = await server.call('/api/order/make', { planId, payMethod: 'wechat' }, user.token);
    expect(off.body).toMatchObject({ code: 409, message: '该套餐已下架，请选择其他套餐' });
  });

  it('with the same Idempotency-Key an app’s retry makes one order', async () => {
    const planId = await makePlan();
    const user = await appUser();
    const send = () =>
      fetch(`${server.url}/api/order/make`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: user.token, 'Idempotency-Key': `order-${user.id}` },
        body: JSON.stringify({ planId, payMethod: 'wechat' }),
      }).then((r) => r.json() as Promise<{ data: { order: Order } }>);
    const answers = await Promise.all([send(), send(), send()]);
    expect(new Set(answers.map((a) => a.data.order.id)).size).toBe(1);
    const made = await db().selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(made).toHaveLength(1);
  });

  it('marked paid twice grants once; a refund takes back what is left and says what could not be', async () => {
    const planId = await makePlan({ durationDays: 30, bonusCoins: 100 });
    const user = await appUser();
    const made = await order(user.token, planId);
    const before = Date.now();
    await ok('/api/order/pay', { id: made.id, note: '银行转账已到账', transactionId: 'T-0001' });
    const again = await server.call('/api/order/pay', { id: made.id, note: '再点一次' }, admin);
    expect(again.body).toMatchObject({ code: 409, message: '订单已支付，不能确认收款（权益不会重复发放）' });
    const paid = await userState(user.id);
    expect(paid.coins).toBe(100);
    expect(paid.vip).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(paid.vip).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);

    // Every change names its source: the order number.
    const vipRecords = await db().selectFrom('vip_records').selectAll().where('user_id', '=', user.id).execute();
    expect(vipRecords.map((r) => [r.reason, r.ref_type, r.ref_id])).toEqual([['order', 'order', made.orderNo]]);
    const coinRecords = await db().selectFrom('coin_records').selectAll().where('user_id', '=', user.id).execute();
    expect(coinRecords.map((r) => [r.delta, r.ref_type, r.ref_id])).toEqual([[100, 'order', made.orderNo]]);

    // The user spends 40 of the bonus coins; a refund can take back only the other 60.
    await ok('/api/users/update/coins', { id: user.id, delta: -40, reason: '兑换商品' });
    const refund = await ok<{
      outcome: { vipTakenMs: number; vipNotTakenMs: number; coinsTaken: number; coinsNotTaken: number };
    }>('/api/order/refund', { id: made.id, note: '用户申请退款' });
    expect(refund.outcome).toMatchObject({ coinsTaken: 60, coinsNotTaken: 40 });
    // The VIP time the user already had since paying (milliseconds here) cannot be taken back.
    expect(refund.outcome.vipTakenMs + refund.outcome.vipNotTakenMs).toBe(30 * DAY_MS);
    expect(refund.outcome.vipNotTakenMs).toBeLessThan(60_000);
    const after = await userState(user.id);
    expect(after.coins).toBe(0);
    expect(after.vip).toBe((paid.vip as number) - refund.outcome.vipTakenMs);
    expect(after.vip).toBeLessThanOrEqual(Date.now());
    const twice = await server.call('/api/order/refund', { id: made.id, note: '再退一次' }, admin);
    expect(twice.body.code).toBe(409);

    const { events } = await ok<{ events: { kind: string; note: string | null; operatorName: string | null }[] }>(
      '/api/order/fetch/detail',
      { id: made.id },
    );
    expect(events.map((e) => e.kind)).toEqual(['created', 'paid', 'granted', 'refunded']);
    expect(events[1]).toMatchObject({ note: '银行转账已到账' });
    expect(events[1].operatorName).toContain('管理员');
    const audits = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', String(made.id))
      .where('action', 'like', 'order.%')
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['order.pay', 'order.refund']);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('a lifetime plan sets VIP to 永久, and its refund puts back the expiry the user had before', async () => {
    const planId = await makePlan({ lifetime: true, bonusCoins: 0 });
    const user = await appUser();
    await ok('/api/vip/update', { id: user.id, app: 'tailor', days: 10, reason: '活动赠送' });
    const had = (await userState(user.id)).vip as number;
    const made = await order(user.token, planId);
    await ok('/api/order/pay', { id: made.id, note: '已到账' });
    expect((await userState(user.id)).vip).toBe(VIP_LIFETIME_MS);
    const refund = await ok<{ outcome: { vipNotTakenMs: number; coinsTaken: number } }>('/api/order/refund', {
      id: made.id,
      note: '退款',
    });
    expect(refund.outcome).toMatchObject({ vipNotTakenMs: 0, coinsTaken: 0 });
    expect((await userState(user.id)).vip).toBe(had);
  });

  it('100 concurrent mark-paid calls on one order grant once', async () => {
    const planId = await makePlan({ durationDays: 7, bonusCoins: 50 });
    const user = await appUser();
    const made = await order(user.token, planId);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => server.call('/api/order/pay', { id: made.id, note: `并发 ${i}` }, admin)),
    );
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(99);
    expect((await userState(user.id)).coins).toBe(50);
    const vipRecords = await db().selectFrom('vip_records').select('id').where('user_id', '=', user.id).execute();
    expect(vipRecords).toHaveLength(1);
    const grants = await db()
      .selectFrom('order_events')
      .select('id')
      .where('order_id', '=', made.id)
      .where('kind', '=', 'granted')
      .execute();
    expect(grants).toHaveLength(1);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('cancel only pending orders; pending orders close by themselves after 30 minutes', async () => {
    const planId = await makePlan({ bonusCoins: 0 });
    const user = await appUser();
    const toCancel = await order(user.token, planId);
    await ok('/api/order/cancel', { id: toCancel.id, note: '用户要求取消' });
    const again = await server.call('/api/order/cancel', { id: toCancel.id, note: '再取消' }, admin);
    expect(again.body).toMatchObject({ code: 409, message: '订单已取消，不能取消' });

    const stale = await order(user.token, planId);
    // 31 minutes pass.
    await db()
      .updateTable('orders')
      .set({ created_at: Date.now() - 31 * 60_000, expires_at: Date.now() - 60_000 })
      .where('id', '=', stale.id)
      .execute();
    const mine = await ok<{ order: Order }>('/api/order/fetch/mine', { orderNo: stale.orderNo }, user.token);
    expect(mine.order.status).toBe('closed');
    const { events } = await ok<{ events: { kind: string }[] }>('/api/order/fetch/detail', { id: stale.id });
    expect(events.map((e) => e.kind)).toEqual(['created', 'closed']);
    expect((await userState(user.id)).vip).toBeNull();
    // Money that still arrives for a closed order can be confirmed, and grants once.
    await ok('/api/order/pay', { id: stale.id, note: '超时后仍到账' });
    expect((await server.call('/api/order/pay', { id: stale.id, note: '再次' }, admin)).body.code).toBe(409);
    const paidLate = await ok<{ events: { kind: string; detail: { previousStatus?: string } | null }[] }>(
      '/api/order/fetch/detail',
      { id: stale.id },
    );
    expect(paidLate.events.map((e) => e.kind)).toEqual(['created', 'closed', 'paid', 'granted']);
    expect(paidLate.events[2].detail?.previousStatus).toBe('closed');
    expect((await userState(user.id)).vip).not.toBeNull();
    // Another user cannot read it.
    const other = await appUser();
    expect((await server.call('/api/order/fetch/mine', { orderNo: stale.orderNo }, other.token)).body.code).toBe(404);
  });

  it('filters by status, method, channel, date and phone; totals match the orders listed; export has them all', async () => {
    const planId = await makePlan({ price: 990 });
    const user = await appUser();
    const a = await order(user.token, planId, { payMethod: 'wechat', channel: 'xiaomi' });
    const b = await order(user.token, planId, { payMethod: 'wechat', channel: 'xiaomi' });
    await order(user.token, planId, { payMethod: 'alipay', channel: 'oppo' });
    await ok('/api/order/pay', { id: a.id, note: '已到账' });
    const filter = { phone: user.phone, payMethod: 'wechat', channel: 'xiaomi' };
    const page = await ok<{ list: Order[]; total: number }>('/api/order/fetch/page', filter);
    expect(page.list.map((o) => o.id).sort()).toEqual([a.id, b.id].sort());
    const totals = await ok<{ count: number; amount: number; paidCount: number; paidAmount: number }>(
      '/api/order/fetch/totals',
      filter,
    );
    expect(totals).toMatchObject({ count: 2, amount: 1980, paidCount: 1, paidAmount: 990 });
    expect(totals.amount).toBe(page.list.reduce((s, o) => s + o.amount, 0));
    const paidOnly = await ok<{ list: Order[] }>('/api/order/fetch/page', { ...filter, status: 'paid' });
    expect(paidOnly.list.map((o) => o.id)).toEqual([a.id]);
    const future = await ok<{ total: number }>('/api/order/fetch/page', {
      ...filter,
      from: new Date(Date.now() + DAY_MS).toISOString(),
    });
    expect(future.total).toBe(0);

    // Unfiltered and per-status totals are the kept counts, and agree with counting.
    const all = await ok<{ total: number }>('/api/order/fetch/page', {});
    const counted = await db()
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(all.total).toBe(Number(counted.n));
    const pending = await ok<{ total: number }>('/api/order/fetch/page', { status: 'pending' });
    const countedPending = await db()
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(pending.total).toBe(Number(countedPending.n));

    const answer = await fetch(`${server.url}/api/order/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin },
      body: JSON.stringify(filter),
    });
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await answer.arrayBuffer()) as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).getCell(1).value).toBe('订单号');
    expect([sheet.getRow(2).getCell(8).value, sheet.getRow(2).getCell(9).value]).toEqual(['9.90', 990]);
  });

  it('amounts and ids that are not whole numbers in range are refused', async () => {
    const user = await appUser();
    for (const planId of [-1, 0.5, '100', 1e308, 2 ** 53]) {
      const answer = await server.call('/api/order/make', { planId, payMethod: 'alipay' }, user.token);
      expect(answer.body.code, String(planId)).toBe(400);
    }
    const wrongMethod = await server.call('/api/order/make', { planId: 1, payMethod: 'cash' }, user.token);
    expect(wrongMethod.body.code).toBe(400);
  });
});
