import { afterAll, beforeAll, expect, it } from 'vitest';
import { chartFigures } from '../src/features/dashboard/charts';
import { forgetUnusedAccountsSql, runAll } from '../src/features/dashboard/counters';
import { cardFigures, DAY, startOfShanghaiDay } from '../src/features/dashboard/queries';
import { startServer, type TestServer } from './harness';

/**
 * The dashboard's figures against the lists they open (issue 27): accounts an operator generates
 * have not used the app, so they are not active; and every card equals what its list shows with
 * the filter the card's link puts on it (as the console's dashboard page builds the links).
 */
let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
type Page = { list: Record<string, unknown>[]; total: number; totalExact: boolean };

async function call<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const answer = await server.call(path, body, admin);
  expect(answer.body.code, `${path} ${answer.text}`).toBe(200);
  return answer.body.data as T;
}

/** Every row of a list under a filter (the test's lists are small). */
async function allRows(path: string, filter: Record<string, unknown>) {
  const rows: Record<string, unknown>[] = [];
  for (let page = 0; ; page++) {
    const answer = await call<Page>(path, { ...filter, page, size: 1024, exactTotal: true });
    rows.push(...answer.list);
    if (answer.list.length < 1024) return { rows, total: answer.total };
  }
}
const totalOf = async (path: string, filter: Record<string, unknown>) =>
  (await call<Page>(path, { ...filter, page: 0, size: 1, exactTotal: true })).total;

/** Midnight in Shanghai `daysBack` days before today and the last millisecond of today, as the card links give them. */
const dayStart = (daysBack = 0) => new Date(startOfShanghaiDay(Date.now()) - daysBack * DAY).toISOString();
const dayEnd = () => new Date(startOfShanghaiDay(Date.now()) + DAY - 1).toISOString();
const activeToday = () => totalOf('/api/users/fetch/page', { activeFrom: dayStart(), sort: 'lastActiveAt' });
const activeInChart = async () => (await chartFigures(db(), 'today', Date.now())).series.active.reduce((a, b) => a + b);

it('does not count generated accounts as active: the card, the chart and the 活跃 filter stay as they were', async () => {
  await server.call('/api/users/fetch/info', {}, admin); // the operator is active today
  const before = {
    card: (await cardFigures(db(), Date.now())).usersActiveToday.value,
    chart: await activeInChart(),
    list: await activeToday(),
  };
  expect(before.card).toBeGreaterThanOrEqual(1);
  const generated = await call<{ accounts: { id: number; phone: string; password: string }[] }>('/api/users/generate', {
    count: 1000,
    phonePrefix: '1990',
  });
  expect(generated.accounts).toHaveLength(1000);
  const after = {
    card: (await cardFigures(db(), Date.now())).usersActiveToday.value,
    chart: await activeInChart(),
    list: await activeToday(),
  };
  expect(after).toEqual(before);
  // Never active: the list shows no activity, and sorted by it they come after every active user.
  const one = generated.accounts[0];
  const { user } = await call<{ user: { lastActiveAt: string | null } }>('/api/users/fetch/detail', { id: one.id });
  expect(user.lastActiveAt).toBeNull();
  const byActivity = await call<Page>('/api/users/fetch/page', { sort: 'lastActiveAt', size: 3 });
  expect(byActivity.list[0].lastActiveAt).not.toBeNull();
  // Signing in makes the account active today, once.
  await server.login(one.phone, one.password);
  expect((await cardFigures(db(), Date.now())).usersActiveToday.value).toBe(before.card + 1);
  expect(await activeToday()).toBe(before.list + 1);
}, 240_000); // argon2 for 1,000 passwords

it('clears the activity of accounts made active before anyone used them, and takes it out of the counters', async () => {
  const before = (await cardFigures(db(), Date.now())).usersActiveToday.value;
  const { id: unused } = await server.addUser();
  const { id: used } = await server.addUser();
  // As accounts were made before: active at creation (counted once); the used one has signed in since.
  await db()
    .updateTable('users')
    .set((eb) => ({ last_active_at: eb.ref('created_at') }))
    .where('id', 'in', [unused, used])
    .execute();
  await db().updateTable('users').set({ last_login_at: Date.now() }).where('id', '=', used).execute();
  const created = await db().selectFrom('users').select('created_at').where('id', '=', used).executeTakeFirstOrThrow();
  expect((await cardFigures(db(), Date.now())).usersActiveToday.value).toBe(before + 2);
  await runAll(db() as never, forgetUnusedAccountsSql());
  expect((await cardFigures(db(), Date.now())).usersActiveToday.value).toBe(before + 1);
  const rows = await db()
    .selectFrom('users')
    .select(['id', 'last_active_at'])
    .where('id', 'in', [unused, used])
    .orderBy('id')
    .execute();
  expect(rows.map((r) => (r.last_active_at === null ? null : Number(r.last_active_at)))).toEqual([
    null,
    Number(created.created_at),
  ]);
});

it('shows on every card what the list it opens counts', async () => {
  const now = Date.now();
  const { id: userId } = await server.addUser();
  await db()
    .insertInto('vip_entitlements')
    .values({ user_id: userId, app: 'tailor', expires_at: now + DAY, updated_at: now })
    .execute();
  const plan = await db()
    .insertInto('plans')
    .values({ app: 'tailor', name: '看板核对', price: 1000, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  let seq = 0;
  const order = (amount: number, status: string, at: number) => ({
    order_no: `CARD${now}${seq++}`,
    user_id: userId,
    plan_id: plan.id,
    plan_name: '看板核对',
    app: 'tailor',
    channel: 'huawei',
    pay_method: 'alipay',
    amount,
    duration_days: 30,
    bonus_coins: 0,
    status,
    created_at: at,
    expires_at: at + DAY,
    paid_at: status === 'pending' ? null : at,
    updated_at: at,
  });
  await db()
    .insertInto('orders')
    .values([
      order(1200, 'paid', now),
      order(800, 'paid', now - 3 * DAY),
      order(700, 'paid', now - 20 * DAY),
      order(500, 'refunded', now),
      order(300, 'pending', now),
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
    .values([coin(50, now), coin(-20, now), coin(9, now - 2 * DAY)])
    .execute();
  await db()
    .insertInto('review_rewards')
    .values({
      user_id: userId,
      app: 'tailor',
      store: 'huawei',
      screenshot: 'x.png',
      status: 'pending',
      coins: 0,
      reason: null,
      reviewer_id: null,
      created_at: now,
      updated_at: now,
      reviewed_at: null,
    } as never)
    .execute();

  const cards = await cardFigures(db(), Date.now());
  const users = '/api/users/fetch/page';
  const paidAmount = async (daysBack: number) =>
    (
      await call<{ paidAmount: number }>('/api/order/fetch/totals', {
        status: 'paid',
        from: dayStart(daysBack),
        to: dayEnd(),
      })
    ).paidAmount;
  const coins = async (direction: 'in' | 'out') =>
    (await allRows('/api/coin/fetch/page', { direction, from: dayStart(), to: dayEnd() })).rows.reduce(
      (sum, r) => sum + Math.abs(Number(r.delta)),
      0,
    );
  const lists: Record<keyof typeof cards, () => Promise<number>> = {
    usersTotal: () => totalOf(users, {}),
    usersNewToday: () => totalOf(users, { from: dayStart(), to: dayEnd() }),
    usersActiveToday: activeToday,
    vipsActive: () => totalOf(users, { vip: 'active' }),
    revenueToday: () => paidAmount(0),
    revenue7Days: () => paidAmount(6),
    revenue30Days: () => paidAmount(29),
    coinsIssuedToday: () => coins('in'),
    coinsSpentToday: () => coins('out'),
    feedbackPending: () => totalOf('/api/feedback/fetch/page', { status: 'pending' }),
    reviewRewardsPending: () => totalOf('/api/reviewreward/fetch/page', { status: 'pending' }),
    exchangesWaiting: () => totalOf('/api/exchange/record/fetch/page', { status: 'waiting' }),
  };
  for (const [key, list] of Object.entries(lists)) {
    expect(cards[key as keyof typeof cards].value, key).toBe(await list());
  }
  expect(cards.usersTotal.value).toBeGreaterThan(1000);
  expect(cards.revenue30Days.value).toBe(2700);
}, 60_000);
