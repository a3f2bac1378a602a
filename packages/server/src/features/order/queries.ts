import { randomInt } from 'node:crypto';
import { ORDER_PAY_WINDOW_MS } from '@appdesk/contract/constants';
import type { OrderRow, orderFilter } from '@appdesk/contract/endpoints/purchase';
import { maskPhone } from '@appdesk/contract/format';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import { lockMoneyCounters } from '../../core/money-lock';
import { retriedTransaction } from '../../db/conflicts';
import type { Db } from '../../db/index';
import { iso, isoOrNull, rangeMs } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { addOrderEvent } from './public';
import type { OrdersTable } from './tables';

/** The list's filter, its app turned into the call's scope (http/app-scope.ts). */
export type OrderFilter = z.output<typeof orderFilter> & { apps: AppScope };
type Row = Selectable<OrdersTable> & { phone: string };

export const statusLabel: Record<string, string> = {
  pending: '待支付',
  paid: '已支付',
  cancelled: '已取消',
  refunded: '已退款',
  closed: '已关闭',
};

export function presentOrder(r: Row): OrderRow {
  return {
    id: r.id,
    orderNo: r.order_no,
    userId: r.user_id,
    userPhone: maskPhone(r.phone),
    planId: r.plan_id,
    planName: r.plan_name,
    app: r.app,
    channel: r.channel,
    payMethod: r.pay_method as OrderRow['payMethod'],
    amount: Number(r.amount),
    durationDays: r.duration_days,
    bonusCoins: Number(r.bonus_coins),
    status: r.status as OrderRow['status'],
    transactionId: r.transaction_id,
    createdAt: iso(Number(r.created_at)),
    expiresAt: iso(Number(r.expires_at)),
    paidAt: isoOrNull(r.paid_at === null ? null : Number(r.paid_at)),
    updatedAt: iso(Number(r.updated_at)),
  };
}

/** Orders with their user's phone. */
export const withUsers = (db: Db) =>
  db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id').selectAll('orders').select('users.phone');

export async function loadOrder(db: Db, where: { id: number } | { orderNo: string; userId: number }) {
  let query = withUsers(db);
  query =
    'id' in where
      ? query.where('orders.id', '=', where.id)
      : query.where('orders.order_no', '=', where.orderNo).where('orders.user_id', '=', where.userId);
  const row = await query.executeTakeFirst();
  if (!row) throw fail.notFound('订单不存在');
  return row;
}

/** The orders a filter keeps, as a condition on `orders`. */
export function orderConditions(filter: OrderFilter) {
  const { from, to } = rangeMs(filter);
  const column = (name: string) => sql.ref(`orders.${name}`);
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      ...(filter.status ? [eb(column('status'), '=', filter.status)] : []),
      ...(filter.payMethod ? [eb(column('pay_method'), '=', filter.payMethod)] : []),
      ...(filter.channel ? [eb(column('channel'), '=', filter.channel)] : []),
      ...(filter.apps ? [inScope('orders.app', filter.apps)(eb)] : []),
      ...(from !== undefined ? [eb(column('created_at'), '>=', from)] : []),
      ...(to !== undefined ? [eb(column('created_at'), '<=', to)] : []),
      ...(filter.phone ? [eb(column('user_id'), 'in', sql`(select id from users where phone = ${filter.phone})`)] : []),
    ]);
}

export const filteredOrders = (db: Db, filter: OrderFilter) => db.selectFrom('orders').where(orderConditions(filter));

/** Only a status (or nothing) is filtered, in every app: the total is kept by triggers. */
export const keptName = (filter: OrderFilter) => {
  const { status, app: _app, ...rest } = filter;
  if (Object.values(rest).some((v) => v !== undefined)) return null;
  return status ? `orders.${status}` : 'orders';
};

/** 20 digits: Shanghai time to the second and 6 random digits. */
export function newOrderNo(now: number): string {
  const wall = new Date(now + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `${wall}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/**
 * Pending orders past their 30 minutes become closed, each with a timeline entry. Called before
 * anything reads or changes orders, so no timer is needed and every process agrees; a cheap
 * indexed look first keeps reads from taking the write lock when nothing is due.
 */
export async function closeExpired(db: Db, onlyId?: number): Promise<void> {
  const now = Date.now();
  let due = db.selectFrom('orders').select('id').where('status', '=', 'pending').where('expires_at', '<=', now);
  if (onlyId !== undefined) due = due.where('id', '=', onlyId);
  if (!(await due.limit(1).executeTakeFirst())) return;
  const close = async (trx: Db) => {
    // The money counters before the orders' rows, as a payment takes them (core/money-lock.ts).
    await lockMoneyCounters(trx);
    let update = trx
      .updateTable('orders')
      .set({ status: 'closed', updated_at: now })
      .where('status', '=', 'pending')
      .where('expires_at', '<=', now);
    if (onlyId !== undefined) update = update.where('id', '=', onlyId);
    const closed = await update.returning('id').execute();
    for (const { id } of closed) {
      await addOrderEvent(trx, {
        orderId: id,
        kind: 'closed',
        note: `超过 ${ORDER_PAY_WINDOW_MS / 60_000} 分钟未支付，自动关闭`,
      });
    }
  };
  if (db.isTransaction) await close(db);
  else await retriedTransaction(db, close);
}
