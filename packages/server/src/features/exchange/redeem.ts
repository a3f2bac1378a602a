import { changeCoins } from '../../core/ledger';
import { lockMoney } from '../../core/money-lock';
import type { Db, Dialect } from '../../db/index';
import { fail } from '../../http/errors';
import { changeVip } from '../vip/public';
import { loadItem, newRecordNo, refuseUnavailable } from './queries';

export interface Redemption {
  userId: number;
  itemId: number;
  /** The app redeeming (an app's own call): an item of another app's shop is not there for it. */
  app?: string;
  receiverName?: string;
  receiverPhone?: string;
  address?: string;
  /** An operator's compensation (补发): no coins are taken and the window and limit do not apply. */
  operatorId?: number;
  /** Why an operator sent it (补发), kept as the record's note. */
  note?: string;
}

/** Locks the user's row and the money counters (core/money-lock.ts; SQLite has one writer), as the ledger's debit does. */
async function lockUser(db: Db, userId: number) {
  await lockMoney(db, userId);
  const row = await db
    .updateTable('users')
    .set((eb) => ({ coins: eb.ref('coins') }))
    .where('id', '=', userId)
    .returning('coins')
    .executeTakeFirst();
  if (!row) throw fail.notFound('用户不存在');
  return Number(row.coins);
}

/**
 * One redemption, inside the caller's transaction: coins (through the ledger), the per-user
 * limit, the stock and a code are checked and taken together, then VIP days or coins granted at
 * once. Answers the new record's id and the user's balance afterwards.
 */
export async function redeem(db: Db, dialect: Dialect, r: Redemption): Promise<{ id: number; coins: number }> {
  const now = Date.now();
  const item = await loadItem(db, r.itemId);
  if (r.app !== undefined && item.app !== r.app) throw fail.notFound('兑换商品不存在');
  const byOperator = r.operatorId !== undefined;
  if (!byOperator) refuseUnavailable(item, now);
  const physical = item.kind === 'physical';
  if (physical && !(r.receiverName && r.receiverPhone && r.address)) {
    throw fail.badInput('实物商品请填写收货人、收货手机号和收货地址');
  }
  const recordNo = newRecordNo(now);
  const cost = byOperator ? 0 : Number(item.cost_coins);
  // Coins first: the ledger's conditional UPDATE locks the user's row, so one user's
  // concurrent redemptions queue here, and the limit below counts the ones before it.
  let coins = byOperator
    ? await lockUser(db, r.userId)
    : (
        await changeCoins(db, {
          userId: r.userId,
          delta: -cost,
          reason: 'exchange',
          refType: 'exchange',
          refId: recordNo,
          note: `兑换“${item.name}”`,
        })
      ).balance;
  if (item.per_user_limit > 0 && !byOperator) {
    const taken = await db
      .selectFrom('exchange_records')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', r.userId)
      .where('item_id', '=', item.id)
      .where('status', '<>', 'cancelled')
      .executeTakeFirstOrThrow();
    if (Number(taken.n) >= item.per_user_limit) {
      throw fail.conflict(`该商品每人限兑 ${item.per_user_limit} 次，您已兑换过`);
    }
  }
  // Finite stock only: an unlimited item's row is never written, so it is no hot spot.
  if (item.stock !== null) {
    const left = await db
      .updateTable('exchange_items')
      .set((eb) => ({ stock: eb('stock', '-', 1) }))
      .where('id', '=', item.id)
      .where('stock', '>', 0)
      .returning('stock')
      .executeTakeFirst();
    if (!left) throw fail.conflict(item.kind === 'code' ? '兑换码已发完，请选择其他商品' : '库存不足，已兑完');
  }
  let code: { id: number; code: string } | undefined;
  if (item.kind === 'code') {
    let free = db
      .selectFrom('exchange_codes')
      .select(['id', 'code'])
      .where('item_id', '=', item.id)
      .where('record_id', 'is', null)
      .orderBy('id')
      .limit(1);
    // Concurrent redemptions on PostgreSQL each take a different free code.
    if (dialect === 'postgres') free = free.forUpdate().skipLocked();
    code = await free.executeTakeFirst();
    if (!code) throw fail.conflict('兑换码已发完，请选择其他商品');
  }
  const { id } = await db
    .insertInto('exchange_records')
    .values({
      record_no: recordNo,
      app: item.app,
      user_id: r.userId,
      item_id: item.id,
      item_name: item.name,
      kind: item.kind,
      value: Number(item.value),
      cost,
      status: physical ? 'waiting' : 'done',
      code: code?.code ?? null,
      receiver_name: physical ? (r.receiverName ?? null) : null,
      receiver_phone: physical ? (r.receiverPhone ?? null) : null,
      address: physical ? (r.address ?? null) : null,
      carrier: null,
      tracking_no: null,
      note: byOperator ? (r.note ? `运营补发：${r.note}` : '运营补发') : null,
      operator_id: r.operatorId ?? null,
      created_at: now,
      updated_at: now,
      shipped_at: null,
      cancelled_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (code) {
    const taken = await db
      .updateTable('exchange_codes')
      .set({ record_id: id, used_at: now })
      .where('id', '=', code.id)
      .where('record_id', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw fail.conflict('兑换人数较多，请重试');
  }
  if (item.kind === 'vip_days') {
    await changeVip(db, {
      userId: r.userId,
      // VIP time bought in an app's shop is VIP in that app.
      app: item.app,
      days: Number(item.value),
      reason: 'exchange',
      refType: 'exchange',
      refId: recordNo,
      operatorId: r.operatorId ?? null,
    });
  } else if (item.kind === 'coins') {
    const granted = await changeCoins(db, {
      userId: r.userId,
      delta: Number(item.value),
      reason: 'exchange',
      refType: 'exchange.grant',
      refId: recordNo,
      operatorId: r.operatorId ?? null,
      note: `兑换“${item.name}”获得`,
    });
    coins = granted.balance;
  }
  return { id, coins };
}
