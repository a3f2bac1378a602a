import type { CoinReason } from '@appdesk/contract/constants';
import { MAX_COINS } from '@appdesk/contract/rules';
import { sql } from 'kysely';
import type { Db } from '../db/index';
import { fail } from '../http/errors';
import { lockMoney } from './money-lock';

export interface CoinChange {
  userId: number;
  /** Positive to grant, negative to spend. */
  delta: number;
  reason: CoinReason;
  /** The business record behind the change; (reason, refType, refId) can be paid only once. */
  refType?: string | null;
  refId?: string | number | null;
  operatorId?: number | null;
  note?: string | null;
}

/**
 * The one way a balance changes. Must run inside the caller's transaction (so the change and
 * the business record commit together). The balance moves with a conditional UPDATE that
 * refuses to go below zero or above MAX_COINS, so concurrent debits can never double-spend: on
 * PostgreSQL the row lock serialises them, on SQLite the single writer does. That UPDATE takes
 * the user's row, then the money counters are taken, in the money paths' one order (core/money-lock.ts).
 */
export async function changeCoins(trx: Db, change: CoinChange): Promise<{ balance: number; recordId: number }> {
  if (!trx.isTransaction) throw new Error('changeCoins must run inside a transaction');
  if (!Number.isSafeInteger(change.delta) || change.delta === 0)
    throw new Error('coin delta must be a non-zero integer');
  const now = Date.now();
  const updated = await trx
    .updateTable('users')
    .set({ coins: sql`coins + ${change.delta}`, updated_at: now })
    .where('id', '=', change.userId)
    .where(sql<boolean>`coins + ${change.delta} between 0 and ${MAX_COINS}`)
    .returning('coins')
    .executeTakeFirst();
  if (!updated) {
    const user = await trx.selectFrom('users').select('coins').where('id', '=', change.userId).executeTakeFirst();
    if (!user) throw fail.notFound('用户不存在');
    if (Number(user.coins) + change.delta > MAX_COINS) {
      throw fail.badInput(`金币余额不能超过 ${MAX_COINS.toLocaleString('zh-CN')}（一万亿）`);
    }
    throw fail.conflict('金币余额不足');
  }
  // The UPDATE took the user's row; the money counters come next (core/money-lock.ts). A refused
  // debit took neither, so a crowd of them does not queue behind each other.
  await lockMoney(trx, change.userId, true);
  const refId = change.refId === undefined || change.refId === null ? null : String(change.refId);
  const record = await trx
    .insertInto('coin_records')
    .values({
      user_id: change.userId,
      delta: change.delta,
      balance_after: updated.coins,
      reason: change.reason,
      ref_type: change.refType ?? null,
      ref_id: refId,
      operator_id: change.operatorId ?? null,
      note: change.note ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { balance: updated.coins, recordId: record.id };
}

/** Users whose balance differs from the sum of their ledger (should always be empty). */
export async function unreconciledUsers(db: Db): Promise<{ id: number; coins: number; ledger: number }[]> {
  const rows = await db
    .selectFrom('users')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('coin_records')
          .select(['user_id', (e) => e.fn.sum<number>('delta').as('total')])
          .groupBy('user_id')
          .as('ledger'),
      (join) => join.onRef('ledger.user_id', '=', 'users.id'),
    )
    .select(['users.id', 'users.coins', (e) => e.fn.coalesce('ledger.total', sql<number>`0`).as('ledger')])
    .where((eb) => eb('users.coins', '!=', eb.fn.coalesce('ledger.total', sql<number>`0`)))
    .execute();
  return rows.map((r) => ({ id: r.id, coins: Number(r.coins), ledger: Number(r.ledger) }));
}
