import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db/index';

/**
 * The one lock order of every money path (VIP and coin changes, order payment, refund and
 * cancellation, redemptions, in-app purchases, payment notifications), on PostgreSQL:
 *
 *   1. the user's row (`users`, FOR UPDATE);
 *   2. the kept counters money writes move (`row_counts`: the ledgers, the orders by status, the
 *      payment notifications), all of them, by name;
 *   3. then the business rows (the order, the item's stock, the record) and their inserts;
 *   4. the operation log's counter and messages last (audit and notices come at the end).
 *
 * Before, a redemption moved the ledger's counter and then the VIP records' one, and an order's
 * payment the other way round: the two deadlocked under load. Every counter is taken here up
 * front in one order instead of by whichever trigger fires first. They are global rows, so money
 * writes commit one after another from this point on, as they already did at their first
 * counter. A path takes this before its first write to any of them; later calls in the same
 * transaction are free. SQLite runs one writer at a time: nothing to do there.
 */
const locked = new WeakMap<Db, Set<number>>();

export function onPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Takes the user's row, then the money counters, once per transaction (PostgreSQL). `rowHeld`: the
 * caller has just taken the row itself (an UPDATE of it), so only the counters are left to take.
 */
export async function lockMoney(trx: Db, userId: number, rowHeld = false): Promise<void> {
  if (!trx.isTransaction) throw new Error('lockMoney must run inside a transaction');
  if (!onPostgres(trx)) return;
  let users = locked.get(trx);
  if (users?.has(userId)) return;
  if (!rowHeld) await sql`select id from users where id = ${userId} for update`.execute(trx);
  if (!users) {
    users = new Set();
    locked.set(trx, users);
    await lockCounters(trx);
  }
  users.add(userId);
}

/** The money counters alone, by name: for a write that changes orders without one user (closing expired ones). */
export async function lockMoneyCounters(trx: Db): Promise<void> {
  if (!trx.isTransaction) throw new Error('lockMoneyCounters must run inside a transaction');
  if (!onPostgres(trx) || locked.has(trx)) return;
  locked.set(trx, new Set());
  await lockCounters(trx);
}

function lockCounters(trx: Db) {
  return sql`select name from row_counts
    where name in ('coin_records', 'vip_records', 'payment_notifications') or name like 'orders%'
    order by name collate "C" for update`.execute(trx);
}
