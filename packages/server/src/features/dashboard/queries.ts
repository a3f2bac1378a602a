import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { DAY_MS, dayOf, SHANGHAI_OFFSET_MS } from './counters';

export const DAY = DAY_MS;
export const SHANGHAI_OFFSET = SHANGHAI_OFFSET_MS;

/** Midnight in Shanghai at the start of the day holding `now`, as epoch ms. */
export const startOfShanghaiDay = (now: number) => dayOf(now) * DAY - SHANGHAI_OFFSET;

type Db = Kysely<Database>;
const num = (v: unknown) => Number(v ?? 0);

/** The sum of a counter over buckets [from, to), every breakdown together: a range of stat_counts' key. */
export async function counted(db: Db, metric: string, from: number, to: number): Promise<number> {
  const row = await db
    .selectFrom('stat_counts')
    .select((eb) => eb.fn.sum<number>('value').as('n'))
    .where('metric', '=', metric)
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .executeTakeFirst();
  return num(row?.n);
}

async function kept(db: Db, names: string[]) {
  const rows = await db.selectFrom('row_counts').select(['name', 'n']).where('name', 'in', names).execute();
  return (name: string) => num(rows.find((r) => r.name === name)?.n);
}

/** How many rows match: bounded by what is pending or active now (an index range), never the whole table. */
const countOf = async (query: { executeTakeFirst(): Promise<{ n: unknown } | undefined> }) =>
  num((await query.executeTakeFirst())?.n);
const n = sql<number>`count(*)`.as('n');

/** State figures without a history of their own: compared with the last value recorded the day before. */
const SNAPSHOTS = ['vipsActive', 'feedbackPending', 'reviewRewardsPending', 'exchangesWaiting'] as const;
type Snapshot = (typeof SNAPSHOTS)[number];

async function snapshotsOf(db: Db, day: number) {
  const rows = await db
    .selectFrom('stat_snapshots')
    .select(['name', 'value'])
    .where('day', '=', day)
    .where('name', 'in', [...SNAPSHOTS])
    .execute();
  return (name: Snapshot) => {
    const row = rows.find((r) => r.name === name);
    return row ? num(row.value) : null;
  };
}

/** Records today's state figures (the last computation of a day stands for that day). */
async function recordSnapshots(db: Db, day: number, now: number, values: Record<Snapshot, number>) {
  await db
    .insertInto('stat_snapshots')
    .values(SNAPSHOTS.map((name) => ({ name, day, value: values[name], updated_at: now })))
    .onConflict((oc) =>
      oc.columns(['name', 'day']).doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

const card = (value: number, previous: number | null) => ({ value, previous });

/**
 * Every card of the dashboard as of `now`, each with the previous period's figure: flows (sign-ups,
 * active users, revenue, coins) from the counters, state figures from kept counts and index ranges,
 * compared with yesterday's snapshot. Records today's snapshot.
 */
export async function cardFigures(db: Db, now: number) {
  const today = dayOf(now);
  const flow = (metric: string, days: number) =>
    Promise.all([
      counted(db, metric, today - days + 1, today + 1),
      counted(db, metric, today - 2 * days + 1, today - days + 1),
    ]).then(([value, previous]) => card(value, previous));
  const [count, yesterday, vips, feedback, waiting] = await Promise.all([
    kept(db, ['users', 'review_rewards.pending']),
    snapshotsOf(db, today - 1),
    countOf(db.selectFrom('users').select(n).where('vip_expires_at', '>', now)),
    countOf(db.selectFrom('feedback').select(n).where('status', '=', 'pending')),
    countOf(db.selectFrom('exchange_records').select(n).where('status', '=', 'waiting')),
  ]);
  const [usersNewToday, usersActiveToday, revenueToday, revenue7Days, revenue30Days, coinsIssued, coinsSpent] =
    await Promise.all([
      flow('signups.d', 1),
      flow('active.d', 1),
      flow('revenue.d', 1),
      flow('revenue.d', 7),
      flow('revenue.d', 30),
      flow('coins_in.d', 1),
      flow('coins_out.d', 1),
    ]);
  const state = {
    vipsActive: vips,
    feedbackPending: feedback,
    reviewRewardsPending: count('review_rewards.pending'),
    exchangesWaiting: waiting,
  };
  await recordSnapshots(db, today, now, state);
  const users = count('users');
  return {
    usersTotal: card(users, users - usersNewToday.value),
    usersNewToday,
    usersActiveToday,
    vipsActive: card(state.vipsActive, yesterday('vipsActive')),
    revenueToday,
    revenue7Days,
    revenue30Days,
    coinsIssuedToday: coinsIssued,
    coinsSpentToday: coinsSpent,
    feedbackPending: card(state.feedbackPending, yesterday('feedbackPending')),
    reviewRewardsPending: card(state.reviewRewardsPending, yesterday('reviewRewardsPending')),
    exchangesWaiting: card(state.exchangesWaiting, yesterday('exchangesWaiting')),
  };
}
