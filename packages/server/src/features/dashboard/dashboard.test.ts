import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { cardFigures, DAY, startOfShanghaiDay } from './queries';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;

describe('dashboard cards', () => {
  it('days start at midnight in Shanghai', () => {
    // 2026-11-23 15:00 UTC is 23:00 in Shanghai: the day began at 16:00 UTC the day before.
    expect(startOfShanghaiDay(Date.UTC(2026, 10, 23, 15))).toBe(Date.UTC(2026, 10, 22, 16));
    expect(startOfShanghaiDay(Date.UTC(2026, 10, 23, 16))).toBe(Date.UTC(2026, 10, 23, 16));
  });

  it('counts exactly what was inserted', async () => {
    const now = Date.now();
    const today = startOfShanghaiDay(now);
    const before = await cardFigures(db(), now);
    const { id: userId } = await server.addUser();
    await db()
      .updateTable('users')
      .set({ last_active_at: now, vip_expires_at: now + DAY })
      .where('id', '=', userId)
      .execute();
    const plan = await db()
      .insertInto('plans')
      .values({ app: 'tailor', name: '统计测试', price: 1000, created_at: now, updated_at: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const order = (no: string, amount: number, status: string, paidAt: number | null) => ({
      order_no: no,
      user_id: userId,
      plan_id: plan.id,
      plan_name: '统计测试',
      app: 'tailor',
      channel: 'huawei',
      pay_method: 'alipay',
      amount,
      duration_days: 30,
      bonus_coins: 0,
      status,
      created_at: now,
      expires_at: now + DAY,
      paid_at: paidAt,
      updated_at: now,
    });
    await db()
      .insertInto('orders')
      .values([
        order('DASH1', 1200, 'paid', now),
        order('DASH2', 800, 'paid', today - DAY / 2), // yesterday
        order('DASH3', 500, 'refunded', now), // not revenue
        order('DASH4', 300, 'pending', null),
        order('DASH5', 700, 'paid', now - 10 * DAY), // in 30 days, not 7
      ])
      .execute();
    const coin = (delta: number, at: number) => ({
      user_id: userId,
      delta,
      balance_after: 0,
      reason: 'admin',
      created_at: at,
    });
    await db()
      .insertInto('coin_records')
      .values([coin(50, now), coin(-20, now), coin(7, today - 1)])
      .execute();
    await db()
      .insertInto('feedback')
      .values({
        app: 'tailor',
        user_id: userId,
        content: '统计',
        contact: '',
        app_version: '1.0',
        channel: 'huawei',
        device_model: 'x',
        os_version: '1',
        device_id: 'd',
        status: 'pending',
        created_at: now,
        updated_at: now,
      })
      .execute();

    const after = await cardFigures(db(), Date.now());
    const change = (key: keyof typeof after) => [
      after[key].value - before[key].value,
      (after[key].previous ?? 0) - (before[key].previous ?? 0),
    ];
    expect(change('usersTotal')).toEqual([1, 0]);
    expect(change('usersNewToday')).toEqual([1, 0]);
    expect(change('usersActiveToday')).toEqual([1, 0]);
    expect(change('vipsActive')).toEqual([1, 0]);
    expect(change('revenueToday')).toEqual([1200, 800]);
    expect(change('revenue7Days')).toEqual([2000, 700]);
    expect(change('revenue30Days')).toEqual([2700, 0]);
    expect(change('coinsIssuedToday')).toEqual([50, 7]);
    expect(change('coinsSpentToday')).toEqual([20, 0]);
    expect(change('feedbackPending')).toEqual([1, 0]);
  });

  it('answers admins only, saying how old the figures are', async () => {
    const answer = await server.call('/api/dashboard/fetch/cards', {}, token);
    expect(answer.body.code).toBe(200);
    const data = answer.body.data as { generatedAt: string; maxAgeSeconds: number; cards: Record<string, unknown> };
    expect(data.maxAgeSeconds).toBe(60);
    expect(Date.now() - Date.parse(data.generatedAt)).toBeLessThan(60_000);
    expect(Object.keys(data.cards)).toHaveLength(12);
    const again = await server.call('/api/dashboard/fetch/cards', {}, token);
    expect((again.body.data as { generatedAt: string }).generatedAt).toBe(data.generatedAt);
    expect((await server.call('/api/dashboard/fetch/cards', {})).body.code).not.toBe(200);
  });
});
