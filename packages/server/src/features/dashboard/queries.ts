import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';

export const DAY = 24 * 60 * 60 * 1000;
/** Asia/Shanghai is UTC+8 all year (no daylight saving). */
export const SHANGHAI_OFFSET = 8 * 60 * 60 * 1000;

/** Midnight in Shanghai at the start of the day holding `now`, as epoch ms. */
export const startOfShanghaiDay = (now: number) => Math.floor((now + SHANGHAI_OFFSET) / DAY) * DAY - SHANGHAI_OFFSET;

type Db = Kysely<Database>;
const num = (v: unknown) => Number(v ?? 0);

async function kept(db: Db, names: string[]) {
  const rows = await db.selectFrom('row_counts').select(['name', 'n']).where('name', 'in', names).execute();
  return (name: string) => num(rows.find((r) => r.name === name)?.n);
}

/** Users who signed up in [from, to): the users_created index. */
async function signUps(db: Db, from: number, to: number) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirst();
  return num(row?.n);
}

/** Fen paid in [from, to) by orders still paid (refunded ones left out): the orders_paid index. */
async function revenue(db: Db, from: number, to: number) {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.sum<number>('amount').as('n'))
    .where('paid_at', '>=', from)
    .where('paid_at', '<', to)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  return num(row?.n);
}

/** Coins given (positive deltas) and taken (negative, returned positive) in [from, to): coin_records_created. */
async function coinFlow(db: Db, from: number, to: number) {
  const row = await db
    .selectFrom('coin_records')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('delta', '>', 0).then(eb.ref('delta')).else(0).end()).as('issued'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('delta', '<', 0)
            .then(eb.neg(eb.ref('delta')))
            .else(0)
            .end(),
        )
        .as('spent'),
    ])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirst();
  return { issued: num(row?.issued), spent: num(row?.spent) };
}

const counted = async (query: { executeTakeFirst(): Promise<{ n: unknown } | undefined> }) =>
  num((await query.executeTakeFirst())?.n);

const n = sql<number>`count(*)`.as('n');
const card = (value: number, previous: number | null = null) => ({ value, previous });

/** Every card of the dashboard, as of `now`. */
export async function cardFigures(db: Db, now: number) {
  const today = startOfShanghaiDay(now);
  const yesterday = today - DAY;
  const [count, newToday, newYesterday, active, vips, coinsToday, coinsYesterday, feedback, waiting] =
    await Promise.all([
      kept(db, ['users', 'review_rewards.pending']),
      signUps(db, today, now + 1),
      signUps(db, yesterday, today),
      counted(db.selectFrom('users').select(n).where('last_active_at', '>=', today)),
      counted(db.selectFrom('users').select(n).where('vip_expires_at', '>', now)),
      coinFlow(db, today, now + 1),
      coinFlow(db, yesterday, today),
      counted(db.selectFrom('feedback').select(n).where('status', '=', 'pending')),
      counted(db.selectFrom('exchange_records').select(n).where('status', '=', 'waiting')),
    ]);
  const revenueOver = async (days: number) => {
    const from = days === 1 ? today : now + 1 - days * DAY;
    const span = days === 1 ? DAY : days * DAY;
    return card(await revenue(db, from, now + 1), await revenue(db, from - span, from));
  };
  const [revenueToday, revenue7Days, revenue30Days] = await Promise.all([1, 7, 30].map(revenueOver));
  const users = count('users');
  return {
    usersTotal: card(users, users - newToday),
    usersNewToday: card(newToday, newYesterday),
    usersActiveToday: card(active),
    vipsActive: card(vips),
    revenueToday,
    revenue7Days,
    revenue30Days,
    coinsIssuedToday: card(coinsToday.issued, coinsYesterday.issued),
    coinsSpentToday: card(coinsToday.spent, coinsYesterday.spent),
    feedbackPending: card(feedback),
    reviewRewardsPending: card(count('review_rewards.pending')),
    exchangesWaiting: card(waiting),
  };
}
