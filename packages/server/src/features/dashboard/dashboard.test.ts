import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleInstanceOnly, startServer, type TestServer } from '../../../test/harness';
import { insertPhysicalItem } from '../../../test/rows';
import { chartFigures, rangeBuckets } from './charts';
import { dayOf, firstDayOfMonth, hourOf, monthOfDay, rollUpSql, runAll } from './counters';
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
let seq = 0;

async function addPlan() {
  const now = Date.now();
  return db()
    .insertInto('plans')
    .values({ app: 'tailor', name: '统计测试', price: 1000, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
}

const order = (userId: number, planId: number, amount: number, status: string, paidAt: number | null) => {
  const now = Date.now();
  return {
    order_no: `DASH${Date.now()}${seq++}`,
    user_id: userId,
    plan_id: planId,
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
  };
};

describe('dashboard cards', () => {
  it('days start at midnight in Shanghai', () => {
    // 2026-11-23 15:00 UTC is 23:00 in Shanghai: the day began at 16:00 UTC the day before.
    expect(startOfShanghaiDay(Date.UTC(2026, 10, 23, 15))).toBe(Date.UTC(2026, 10, 22, 16));
    expect(startOfShanghaiDay(Date.UTC(2026, 10, 23, 16))).toBe(Date.UTC(2026, 10, 23, 16));
  });

  it('counts exactly what was inserted, each figure beside the previous period', async () => {
    const now = Date.now();
    const today = startOfShanghaiDay(now);
    const before = await cardFigures(db(), now);
    const { id: userId } = await server.addUser();
    await db().updateTable('users').set({ last_active_at: now }).where('id', '=', userId).execute();
    await db()
      .insertInto('vip_entitlements')
      .values({ user_id: userId, app: 'tailor', expires_at: now + DAY, updated_at: now })
      .execute();
    const plan = await addPlan();
    await db()
      .insertInto('orders')
      .values([
        order(userId, plan.id, 1200, 'paid', now),
        order(userId, plan.id, 800, 'paid', today - DAY / 2), // yesterday
        order(userId, plan.id, 500, 'refunded', now), // not revenue
        order(userId, plan.id, 300, 'pending', null),
        order(userId, plan.id, 700, 'paid', today - 10 * DAY), // in 30 days, not 7
        order(userId, plan.id, 900, 'paid', today - 8 * DAY), // the 7 days before the last 7
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
    expect(change('revenue7Days')).toEqual([2000, 1600]);
    expect(change('revenue30Days')).toEqual([3600, 0]);
    expect(change('coinsIssuedToday')).toEqual([50, 7]);
    expect(change('coinsSpentToday')).toEqual([20, 0]);
    expect(change('feedbackPending')).toEqual([1, 0]);
  });

  it('compares state figures with the snapshot recorded yesterday', async () => {
    const yesterday = dayOf(Date.now()) - 1;
    await db()
      .insertInto('stat_snapshots')
      .values({ name: 'feedbackPending', day: yesterday, value: 12_345, updated_at: Date.now() })
      .onConflict((oc) => oc.columns(['name', 'day']).doUpdateSet({ value: 12_345 }))
      .execute();
    const figures = await cardFigures(db(), Date.now());
    expect(figures.feedbackPending.previous).toBe(12_345);
    const recorded = await db()
      .selectFrom('stat_snapshots')
      .select('value')
      .where('name', '=', 'feedbackPending')
      .where('day', '=', yesterday + 1)
      .executeTakeFirstOrThrow();
    expect(Number(recorded.value)).toBe(figures.feedbackPending.value);
  });

  it.runIf(
    singleInstanceOnly(
      'each instance keeps its own copy of the figures (up to 60 s), so two calls may meet two copies',
    ),
  )('answers admins only, saying how old the figures are', async () => {
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

interface Charts {
  unit: string;
  labels: string[];
  series: Record<'signups' | 'active' | 'orders' | 'revenue', number[]>;
  byChannel: { channel: string; users: number; revenue: number }[];
  topItems: { itemId: number; name: string; count: number }[];
}
/** The figures themselves (the endpoint keeps its answers up to 60 s). */
const charts = (range: 'today' | 'week' | 'month' | 'year'): Promise<Charts> => chartFigures(db(), range, Date.now());
const last = (list: number[]) => list[list.length - 1];
const channelOf = (c: Charts, channel: string) =>
  c.byChannel.find((r) => r.channel === channel) ?? { channel, users: 0, revenue: 0 };

describe('dashboard charts', () => {
  it('cuts the presets in Shanghai time: today by hour, week from Monday, month, year by day', () => {
    // Wednesday 2026-11-25 10:30 in Shanghai.
    const now = Date.UTC(2026, 10, 25, 2, 30);
    const today = rangeBuckets('today', now);
    expect([today.unit, today.last - today.first + 1]).toEqual(['hour', 11]);
    expect(today.first).toBe(hourOf(Date.UTC(2026, 10, 24, 16)));
    const week = rangeBuckets('week', now);
    expect(new Date(week.first * DAY).toISOString().slice(0, 10)).toBe('2026-11-23'); // a Monday
    expect(week.last - week.first + 1).toBe(3);
    expect(new Date(rangeBuckets('month', now).first * DAY).toISOString().slice(0, 10)).toBe('2026-11-01');
    expect(new Date(rangeBuckets('year', now).first * DAY).toISOString().slice(0, 10)).toBe('2026-01-01');
    // A Sunday belongs to the week that began six days before.
    const sunday = rangeBuckets('week', Date.UTC(2026, 10, 29, 12));
    expect(new Date(sunday.first * DAY).toISOString().slice(0, 10)).toBe('2026-11-23');
    // Month numbers: Shanghai's wall clock (16:30 UTC on 31 January is 1 February there).
    expect(monthOfDay(dayOf(Date.UTC(2026, 0, 31, 16, 30)))).toBe(2026 * 12 + 1);
    expect(new Date(firstDayOfMonth(2026 * 12 + 1) * DAY).toISOString().slice(0, 10)).toBe('2026-02-01');
  });

  it('draws sign-ups, activity, paid orders, revenue, channels and top items from the counters', async () => {
    const before = { today: await charts('today'), year: await charts('year') };
    expect(before.today.unit).toBe('hour');
    expect(before.today.labels[0]).toBe('00:00');
    expect(before.year.unit).toBe('day');
    expect(before.year.labels[0]).toMatch(/^\d{4}-01-01$/);
    for (const series of Object.values(before.year.series)) expect(series).toHaveLength(before.year.labels.length);

    const now = Date.now();
    const { id: userId } = await server.addUser();
    await db().updateTable('users').set({ last_active_at: now }).where('id', '=', userId).execute();
    const plan = await addPlan();
    const paid = await db()
      .insertInto('orders')
      .values({ ...order(userId, plan.id, 4321, 'pending', null), channel: 'oppo' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('orders').set({ status: 'paid', paid_at: now }).where('id', '=', paid.id).execute();
    const refunded = await db()
      .insertInto('orders')
      .values({ ...order(userId, plan.id, 1000, 'paid', now), channel: 'oppo' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('orders').set({ status: 'refunded' }).where('id', '=', refunded.id).execute();
    // Paid 40 days ago: in a month before this one, which the year's breakdown reads from the monthly counter.
    const earlier = now - 40 * DAY;
    await db()
      .insertInto('orders')
      .values({ ...order(userId, plan.id, 555, 'paid', earlier), channel: 'oppo' })
      .execute();
    const earlierInYear = rangeBuckets('year', now).first <= dayOf(earlier);
    const item = await insertPhysicalItem(db(), `统计商品${seq++}`, now);
    const record = (status: string) => ({
      record_no: `EX${Date.now()}${seq++}`,
      app: 'tailor',
      user_id: userId,
      item_id: item.id,
      item_name: item.name,
      kind: 'physical',
      value: 0,
      cost: 10,
      status,
      created_at: now,
      updated_at: now,
    });
    const records = await db()
      .insertInto('exchange_records')
      .values([record('waiting'), record('done'), record('waiting')])
      .returning('id')
      .execute();
    await db().updateTable('exchange_records').set({ status: 'cancelled' }).where('id', '=', records[0].id).execute();

    const after = { today: await charts('today'), year: await charts('year') };
    for (const range of ['today', 'year'] as const) {
      const [b, a] = [before[range], after[range]];
      expect(last(a.series.signups) - last(b.series.signups)).toBe(1);
      expect(last(a.series.active) - last(b.series.active)).toBe(1);
      expect(last(a.series.orders) - last(b.series.orders)).toBe(1);
      expect(last(a.series.revenue) - last(b.series.revenue)).toBe(4321);
    }
    // The channel a user signed up from is the one they had when inserted (the counters follow inserts).
    const users = (c: Charts) => c.byChannel.reduce((s, r) => s + r.users, 0);
    expect(users(after.today) - users(before.today)).toBe(1);
    expect(channelOf(after.today, 'oppo').revenue - channelOf(before.today, 'oppo').revenue).toBe(4321);
    expect(channelOf(after.year, 'oppo').revenue - channelOf(before.year, 'oppo').revenue).toBe(
      4321 + (earlierInYear ? 555 : 0),
    );
    expect(after.today.topItems.find((t) => t.itemId === item.id)).toEqual({
      itemId: item.id,
      name: item.name,
      count: 2,
    });
  });

  it('keeps counters equal to a roll-up of the rows (orders, coins, redemptions, sign-ups)', async () => {
    const metrics = ['signups.h', 'signups.d', 'signups.dc', 'signups.mc', 'orders.h', 'orders.d'];
    metrics.push('revenue.h', 'revenue.d', 'revenue.dc', 'revenue.mc', 'coins_in.d', 'coins_out.d');
    metrics.push('exchanges.di', 'exchanges.mi');
    // The first app's own counters too (coins are company-wide: no app of their own).
    metrics.push(...metrics.filter((m) => !m.startsWith('coins')).map((m) => `${m}:tailor`));
    const read = async () =>
      (
        await db()
          .selectFrom('stat_counts')
          .select(['metric', 'bucket', 'dim', 'value'])
          .where('metric', 'in', metrics)
          .where('value', '<>', 0)
          .orderBy('metric')
          .orderBy('bucket')
          .orderBy('dim')
          .execute()
      ).map((r) => `${r.metric} ${r.bucket} ${r.dim} ${Number(r.value)}`);
    const kept = await read();
    expect(kept.length).toBeGreaterThan(5);
    // Rolled up again inside a transaction that is then undone, so the kept counters stay as they were.
    let rolled: string[] = [];
    const undo = new Error('undo');
    await db()
      .transaction()
      .execute(async (trx) => {
        const dialect = server.app.services.dialect;
        await runAll(trx as never, rollUpSql(dialect, ['orders', 'coin_records', 'exchange_records']));
        // Sign-ups (the delete and the first four); activity has no history in the rows.
        await runAll(trx as never, rollUpSql(dialect, ['users'], { perApp: false }).slice(0, 5));
        rolled = (
          await trx
            .selectFrom('stat_counts')
            .select(['metric', 'bucket', 'dim', 'value'])
            .where('metric', 'in', metrics)
            .where('value', '<>', 0)
            .orderBy('metric')
            .orderBy('bucket')
            .orderBy('dim')
            .execute()
        ).map((r) => `${r.metric} ${r.bucket} ${r.dim} ${Number(r.value)}`);
        throw undo;
      })
      .catch((e) => {
        if (e !== undo) throw e;
      });
    expect(rolled).toEqual(kept);
    expect(await read()).toEqual(kept);
  });

  it.runIf(
    singleInstanceOnly(
      'each instance keeps its own copy of the figures (up to 60 s), so two calls may meet two copies',
    ),
  )('answers admins the figures of a range, kept up to 60 s', async () => {
    const answer = await server.call('/api/dashboard/fetch/charts', { range: 'month' }, token);
    expect(answer.body.code).toBe(200);
    const data = answer.body.data as Charts & { generatedAt: string; maxAgeSeconds: number };
    expect(data.maxAgeSeconds).toBe(60);
    expect(data.labels[0]).toMatch(/^\d{4}-\d{2}-01$/);
    expect(data).toMatchObject(await charts('month'));
    const again = await server.call('/api/dashboard/fetch/charts', { range: 'month' }, token);
    expect((again.body.data as { generatedAt: string }).generatedAt).toBe(data.generatedAt);
  });

  it('refuses an unknown range with a Chinese message, and non-admins', async () => {
    const bad = await server.call('/api/dashboard/fetch/charts', { range: 'decade' }, token);
    expect(bad.body.code).toBe(400);
    expect(bad.body.message).toContain('时间范围');
    expect((await server.call('/api/dashboard/fetch/charts', { range: 'week' })).body.code).not.toBe(200);
  });
});
