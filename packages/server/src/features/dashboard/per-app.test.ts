import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { newUserRow } from '../../core/new-user';
import { APP_SCOPED_METRICS, firstAppCountersSql, runAll } from './counters';

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
const dbOf = () => db();
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Card = { value: number; previous: number | null; companyWide?: boolean };
type Charts = {
  series: Record<string, number[]>;
  byChannel: { channel: string; users: number; revenue: number }[];
  topItems: { itemId: number; count: number }[];
};
let seq = 0;

/** Users registered in `app`, active now, with a paid order each (orders.app) and a waiting redemption. */
async function activity(app: string, users: number, amount: number) {
  const now = Date.now();
  const plan = await db()
    .insertInto('plans')
    .values({ app, name: `${app} 月卡`, price: amount, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const item = await db()
    .insertInto('exchange_items')
    .values({
      app,
      name: `${app} 商品`,
      image: '',
      description: '',
      kind: 'physical',
      value: 0,
      cost_coins: 1,
      stock: null,
      per_user_limit: 0,
      starts_at: null,
      ends_at: null,
      sort: 0,
      enabled: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < users; i++) {
    const { id } = await db()
      .insertInto('users')
      .values(
        newUserRow({ phone: `1990001${String(seq++).padStart(4, '0')}`, password_hash: 'x', app, channel: 'huawei' }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('users').set({ last_active_at: now }).where('id', '=', id).execute();
    await db()
      .insertInto('vip_entitlements')
      .values({ user_id: id, app, expires_at: now + 86_400_000, updated_at: now })
      .execute();
    await db()
      .insertInto('orders')
      .values({
        order_no: `PA${now}${seq++}`,
        user_id: id,
        plan_id: plan.id,
        plan_name: '月卡',
        app,
        channel: 'huawei',
        pay_method: 'alipay',
        amount,
        duration_days: 30,
        bonus_coins: 0,
        status: 'paid',
        created_at: now,
        expires_at: now + 86_400_000,
        paid_at: now,
        updated_at: now,
      } as never)
      .execute();
    await db()
      .insertInto('exchange_records')
      .values({
        record_no: `EXPA${now}${seq++}`,
        app,
        user_id: id,
        item_id: item.id,
        item_name: `${app} 商品`,
        kind: 'physical',
        value: 0,
        cost: 1,
        status: 'waiting',
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

describe('the dashboard per app', () => {
  it('starts the first app’s counters of an upgraded site as a copy of the all-apps ones', async () => {
    await activity('tailor', 2, 1000);
    const rows = async (db: ReturnType<typeof dbOf>, suffix: string) =>
      (
        await db
          .selectFrom('stat_counts')
          .select(['metric', 'bucket', 'dim', 'value'])
          .where(
            'metric',
            'in',
            APP_SCOPED_METRICS.map((m) => `${m}${suffix}`),
          )
          .where('value', '<>', 0)
          .orderBy('metric')
          .orderBy('bucket')
          .orderBy('dim')
          .execute()
      ).map((r) => `${r.metric.replace(suffix, '')} ${r.bucket} ${r.dim} ${Number(r.value)}`);
    const all = await rows(db(), '');
    expect(all.length).toBeGreaterThan(5);
    // As the migration finds a site from before apps: no per-app counters yet. Undone afterwards.
    const undo = new Error('undo');
    let copied: string[] = [];
    let users = 0;
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('stat_counts').where('metric', 'like', '%:%').execute();
        await runAll(trx as never, firstAppCountersSql());
        copied = await rows(trx as never, ':tailor');
        const kept = await trx
          .selectFrom('stat_counts')
          .select('value')
          .where('metric', '=', 'users:tailor')
          .executeTakeFirst();
        users = Number(kept?.value);
        throw undo;
      })
      .catch((e) => {
        if (e !== undo) throw e;
      });
    expect(copied).toEqual(all);
    const total = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(users).toBe(Number(total.n));
  });

  it('answers every card and chart of 全部应用 as the sum of the apps’ (coins are company-wide)', async () => {
    await activity('quote', 3, 700);
    const cards = async (app?: string) =>
      (
        await ok<{ cards: Record<string, Card> }>('/api/dashboard/fetch/cards', {
          refresh: true,
          ...(app ? { app } : {}),
        })
      ).cards;
    const [all, tailor, quote] = [await cards(), await cards('tailor'), await cards('quote')];
    expect(quote.usersTotal.value).toBe(3);
    expect(quote.revenueToday.value).toBe(2100);
    expect(quote.exchangesWaiting.value).toBe(3);
    expect(quote.vipsActive.value).toBe(3);
    for (const [name, card] of Object.entries(all)) {
      if (card.companyWide) {
        // The company's figure, whichever app is asked for.
        expect([name, tailor[name].value, quote[name].value]).toEqual([name, card.value, card.value]);
        continue;
      }
      expect([name, card.value]).toEqual([name, tailor[name].value + quote[name].value]);
      if (card.previous !== null)
        expect([name, card.previous]).toEqual([name, (tailor[name].previous ?? 0) + (quote[name].previous ?? 0)]);
    }
    expect(all.coinsIssuedToday.companyWide).toBe(true);

    const charts = async (app?: string) =>
      ok<Charts>('/api/dashboard/fetch/charts', { range: 'today', refresh: true, ...(app ? { app } : {}) });
    const [c, t, q] = [await charts(), await charts('tailor'), await charts('quote')];
    for (const name of Object.keys(c.series)) {
      expect([name, c.series[name]]).toEqual([
        name,
        c.series[name].map((_, i) => t.series[name][i] + q.series[name][i]),
      ]);
    }
    expect(q.series.revenue.reduce((a, b) => a + b, 0)).toBe(2100);
    const channel = (charts: Charts) =>
      charts.byChannel.find((r) => r.channel === 'huawei') ?? { users: 0, revenue: 0 };
    expect(channel(c).users).toBe(channel(t).users + channel(q).users);
    expect(channel(c).revenue).toBe(channel(t).revenue + channel(q).revenue);
    expect(q.topItems.map((i) => i.count)).toEqual([3]);
    expect(c.topItems.map((i) => i.count).sort()).toEqual([...t.topItems, ...q.topItems].map((i) => i.count).sort());
  });
});
