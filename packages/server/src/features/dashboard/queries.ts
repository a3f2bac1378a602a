import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { type AppScope, inScope } from '../../http/app-scope';
import { vipCount } from '../vip/public';
import { DAY_MS, dayOf, metricOf, SHANGHAI_OFFSET_MS } from './counters';

export const DAY = DAY_MS;
export const SHANGHAI_OFFSET = SHANGHAI_OFFSET_MS;

/** Midnight in Shanghai at the start of the day holding `now`, as epoch ms. */
export const startOfShanghaiDay = (now: number) => dayOf(now) * DAY - SHANGHAI_OFFSET;

type Db = Kysely<Database>;
const num = (v: unknown) => Number(v ?? 0);

async function kept(db: Db, names: string[]) {
  const rows = await db.selectFrom('row_counts').select(['name', 'n']).where('name', 'in', names).execute();
  return (name: string) => num(rows.find((r) => r.name === name)?.n);
}

const n = sql<number>`count(*)`.as('n');

/** State figures without a history of their own: compared with the last value recorded the day before. */
const SNAPSHOTS = ['vipsActive', 'feedbackPending', 'reviewRewardsPending', 'exchangesWaiting'] as const;
type Snapshot = (typeof SNAPSHOTS)[number];

/** The snapshots of yesterday and today, in one read (an app's are named `<figure>:<app>`). */
async function snapshotsOf(db: Db, today: number, app?: string) {
  const rows = await db
    .selectFrom('stat_snapshots')
    .select(['name', 'day', 'value'])
    .where('day', 'in', [today - 1, today])
    .where(
      'name',
      'in',
      SNAPSHOTS.map((name) => metricOf(name, app)),
    )
    .execute();
  return (name: Snapshot, day: number) => {
    const row = rows.find((r) => r.name === metricOf(name, app) && Number(r.day) === day);
    return row ? num(row.value) : null;
  };
}

/** Records today's state figures where they changed (the last computation of a day stands for that day). */
async function recordSnapshots(db: Db, day: number, now: number, values: Record<Snapshot, number>, app?: string) {
  await db
    .insertInto('stat_snapshots')
    .values(SNAPSHOTS.map((name) => ({ name: metricOf(name, app), day, value: values[name], updated_at: now })))
    .onConflict((oc) =>
      oc.columns(['name', 'day']).doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** What waits for an operator, by the table and status that hold it. */
const TODOS = {
  feedbackPending: { table: 'feedback', status: 'pending' },
  reviewRewardsPending: { table: 'review_rewards', status: 'pending' },
  exchangesWaiting: { table: 'exchange_records', status: 'waiting' },
} as const;
export type Todo = keyof typeof TODOS;

/**
 * The operator's to-dos, counted once for the dashboard's cards and the header bell (notices.ts)
 * alike, each with when its oldest item arrived: one index range of what is pending, never the table.
 * Of one app, every app, or (the bell of an operator limited to some apps) the apps of a scope.
 */
export async function todoFigures(
  db: Db,
  app?: string | AppScope,
): Promise<Record<Todo, { count: number; oldest: number | null }>> {
  const figures = await Promise.all(
    Object.values(TODOS).map(({ table, status }) => {
      let query = db
        .selectFrom(table)
        .select([n, sql<number | string | null>`min(created_at)`.as('oldest')])
        .where('status', '=', status);
      if (typeof app === 'string') query = query.where('app', '=', app);
      else if (app) query = query.where(inScope('app', app));
      return query.executeTakeFirst();
    }),
  );
  const [feedbackPending, reviewRewardsPending, exchangesWaiting] = figures.map((row) => ({
    count: num(row?.n),
    oldest: row?.oldest === null || row?.oldest === undefined ? null : num(row.oldest),
  }));
  return { feedbackPending, reviewRewardsPending, exchangesWaiting };
}

const FLOWS = ['signups.d', 'active.d', 'revenue.d', 'coins_in.d', 'coins_out.d'] as const;
/** Coins are company-wide (an account's balance serves every app): their counters have no app. */
const COMPANY_WIDE = new Set<string>(['coins_in.d', 'coins_out.d']);
const flowMetric = (metric: string, app?: string) => (COMPANY_WIDE.has(metric) ? metric : metricOf(metric, app));

/** The daily counters of the flow cards over the last 60 days, in one read of at most 300 rows. */
async function flowsOf(db: Db, today: number, app?: string) {
  const rows = await db
    .selectFrom('stat_counts')
    .select(['metric', 'bucket', 'value'])
    .where(
      'metric',
      'in',
      FLOWS.map((m) => flowMetric(m, app)),
    )
    .where('bucket', '>', today - 60)
    .where('bucket', '<=', today)
    .where('dim', '=', '')
    .execute();
  /** The sum of a counter over the `days` days ending today, and over the `days` before those. */
  return (metric: (typeof FLOWS)[number], days: number) => {
    let value = 0;
    let previous = 0;
    for (const r of rows) {
      if (r.metric !== flowMetric(metric, app)) continue;
      const back = today - Number(r.bucket);
      if (back < days) value += num(r.value);
      else if (back < 2 * days) previous += num(r.value);
    }
    return COMPANY_WIDE.has(metric) ? { ...card(value, previous), companyWide: true } : card(value, previous);
  };
}

const card = (value: number, previous: number | null) => ({ value, previous });

/** The number of users: the kept count for all apps, the per-app counter (counters.ts) for one. */
async function usersOf(db: Db, app?: string) {
  if (app === undefined) return (await kept(db, ['users']))('users');
  const row = await db
    .selectFrom('stat_counts')
    .select('value')
    .where('metric', '=', metricOf('users', app))
    .where('bucket', '=', 0)
    .where('dim', '=', '')
    .executeTakeFirst();
  return num(row?.value);
}

/** Active VIPs among the users counted under the app (all apps: every user). */
/**
 * Every card of the dashboard as of `now`, each with the previous period's figure: flows (sign-ups,
 * active users, revenue, coins) from the counters, state figures from kept counts and index ranges,
 * compared with yesterday's snapshot. Records today's snapshot.
 */
export async function cardFigures(db: Db, now: number, app?: string) {
  const today = dayOf(now);
  const [users, flow, snapshot, vips, todos] = await Promise.all([
    usersOf(db, app),
    flowsOf(db, today, app),
    snapshotsOf(db, today, app),
    vipCount(db, app, now),
    todoFigures(db, app),
  ]);
  const state = {
    vipsActive: vips,
    feedbackPending: todos.feedbackPending.count,
    reviewRewardsPending: todos.reviewRewardsPending.count,
    exchangesWaiting: todos.exchangesWaiting.count,
  };
  if (SNAPSHOTS.some((name) => snapshot(name, today) !== state[name]))
    await recordSnapshots(db, today, now, state, app);
  const usersNewToday = flow('signups.d', 1);
  const compared = (name: Snapshot) => card(state[name], snapshot(name, today - 1));
  return {
    usersTotal: card(users, users - usersNewToday.value),
    usersNewToday,
    usersActiveToday: flow('active.d', 1),
    vipsActive: compared('vipsActive'),
    revenueToday: flow('revenue.d', 1),
    revenue7Days: flow('revenue.d', 7),
    revenue30Days: flow('revenue.d', 30),
    coinsIssuedToday: flow('coins_in.d', 1),
    coinsSpentToday: flow('coins_out.d', 1),
    feedbackPending: compared('feedbackPending'),
    reviewRewardsPending: compared('reviewRewardsPending'),
    exchangesWaiting: compared('exchangesWaiting'),
  };
}
