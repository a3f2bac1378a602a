import { lockMoney } from '../../core/money-lock';
import type { Db } from '../../db/index';
import { iso } from '../../db/paging';
import { applyGrant, type Grant, type TakenBack, takeBackGrant } from '../vip/public';

/*
 * The order feature's public module: what other features (payment) may do with orders. Everything
 * that reads or writes the order tables from outside goes through here (test/table-ownership.test.ts).
 */

/** Appends a step to an order's timeline (`order_events`, append-only). */
export async function addOrderEvent(
  db: Db,
  event: { orderId: number; kind: string; operatorId?: number | null; note?: string | null; detail?: object | null },
) {
  await db
    .insertInto('order_events')
    .values({
      order_id: event.orderId,
      kind: event.kind,
      operator_id: event.operatorId ?? null,
      note: event.note ?? null,
      detail: event.detail ? JSON.stringify(event.detail) : null,
      created_at: Date.now(),
    })
    .execute();
}

export interface Payment {
  orderId: number;
  /** 'manual' (an operator's 确认收款) or the platform whose notification paid it. */
  method: 'manual' | 'alipay' | 'wechat';
  transactionId: string | null;
  operatorId: number | null;
  note?: string | null;
}

type Granted = Pick<Grant, 'userId' | 'app' | 'days' | 'coins' | 'refId'>;
const grantOf = (o: {
  user_id: number;
  app: string;
  duration_days: number | null;
  bonus_coins: number;
  order_no: string;
}) => ({
  userId: o.user_id,
  app: o.app,
  days: o.duration_days ?? ('lifetime' as const),
  coins: Number(o.bonus_coins),
  refId: o.order_no,
});

/**
 * Pays an order once: one conditional UPDATE moves it to paid (from pending, or from closed or
 * cancelled when money still arrived), and in the same transaction grants the plan's VIP time and
 * bonus coins and writes the timeline. Returns null when the order was not payable (already paid
 * or refunded), so retries, races and replayed notifications never grant twice.
 */
export async function payOrder(trx: Db, p: Payment): Promise<{ previousStatus: string } | null> {
  const current = await trx
    .selectFrom('orders')
    .select(['status', 'user_id'])
    .where('id', '=', p.orderId)
    .executeTakeFirst();
  if (!current) return null;
  // The buyer's row and the money counters before the order's row (core/money-lock.ts).
  await lockMoney(trx, current.user_id);
  const now = Date.now();
  // Only one call can move the order to paid: the others find no payable row (PostgreSQL waits on
  // the row lock and re-reads; SQLite has one writer).
  const paid = await trx
    .updateTable('orders')
    .set({ status: 'paid', paid_at: now, transaction_id: p.transactionId, updated_at: now })
    .where('id', '=', p.orderId)
    .where('status', 'in', ['pending', 'closed', 'cancelled'])
    .returning(['id', 'order_no', 'user_id', 'app', 'duration_days', 'bonus_coins', 'amount'])
    .executeTakeFirst();
  if (!paid) return null;
  await addOrderEvent(trx, {
    orderId: paid.id,
    kind: 'paid',
    operatorId: p.operatorId,
    note: p.note ?? null,
    detail: {
      method: p.method,
      amount: Number(paid.amount),
      transactionId: p.transactionId,
      previousStatus: current.status,
    },
  });
  const grant = grantOf(paid);
  const { vip, coinRecordId } = await applyGrant(trx, {
    ...grant,
    source: 'order',
    operatorId: p.operatorId,
    note: `订单 ${paid.order_no} 赠送`,
  });
  await addOrderEvent(trx, {
    orderId: paid.id,
    kind: 'granted',
    detail: {
      vipBefore: vip?.before == null ? null : iso(vip.before),
      vipAfter: vip?.after == null ? null : iso(vip.after),
      vipRecordId: vip?.recordId ?? null,
      coins: grant.coins,
      coinRecordId,
    },
  });
  return { previousStatus: current.status };
}

/** Takes back what a paid order granted (the order row has already moved to refunded). */
export function takeBackOrder(
  trx: Db,
  order: { user_id: number; app: string; duration_days: number | null; bonus_coins: number; order_no: string },
  operatorId: number | null,
  note: string,
): Promise<TakenBack> {
  const grant: Granted = grantOf(order);
  return takeBackGrant(trx, { ...grant, source: 'order', operatorId, note });
}

/** The order a payment notification names, by its number: what the notification is checked against (its app, its amount). */
export function orderByNumber(db: Db, orderNo: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'app', 'amount', 'status', 'transaction_id'])
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
}

/** An order's status and transaction now (after a payment that found it already paid). */
export function orderStatus(db: Db, id: number) {
  return db.selectFrom('orders').select(['status', 'transaction_id']).where('id', '=', id).executeTakeFirstOrThrow();
}
