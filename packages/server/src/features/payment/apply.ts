import { orderByNumber, orderStatus, payOrder } from '../order/public';
import type { PaymentDb } from './tables';

/** What a notification claims, and whether it verified. */
export type Claim = { orderNo: string | null; transactionId: string | null; amount: number | null } & (
  | { ok: true; paid: boolean; state: string }
  | { ok: false; reason: string }
);

/** A notification that did not verify, and why. */
export type Refused = Extract<Claim, { ok: false }>;

/** A claim checked among several apps' settings: verified, it names the app whose settings did. */
export type AppClaim = (Claim & { ok: true; app: string }) | (Claim & { ok: false; app: null });

/** The app whose settings verified a notification (its order must be that app's), and the apps' names. */
export interface Verifier {
  code: string;
  nameOf(code: string): string;
}

export interface Applied {
  status: 'applied' | 'duplicate' | 'ignored' | 'rejected';
  reason: string | null;
}

/**
 * Applies a verified payment notification to its order, inside the caller's transaction: the order
 * is found by number, it must be an order of the app whose settings verified the notification, its
 * amount must equal what the platform says was paid, and payOrder moves it to paid (and grants) at
 * most once, so replays and racing duplicates find it paid and change nothing. Every notification
 * is kept with what became of it.
 */
export async function applyPayment(
  db: PaymentDb,
  method: 'alipay' | 'wechat',
  claim: Claim,
  payload: unknown,
  app: Verifier,
) {
  const outcome = await decide(db, method, claim, app);
  await db
    .insertInto('payment_notifications')
    .values({
      method,
      app: app.code,
      order_no: claim.orderNo,
      transaction_id: claim.transactionId,
      amount: claim.amount,
      status: outcome.status,
      reason: outcome.reason,
      payload: JSON.stringify(payload),
      created_at: Date.now(),
    })
    .execute();
  return outcome;
}

async function decide(db: PaymentDb, method: 'alipay' | 'wechat', claim: Claim, app: Verifier): Promise<Applied> {
  if (!claim.ok) return { status: 'rejected', reason: claim.reason };
  if (!claim.paid) return { status: 'ignored', reason: `交易状态 ${claim.state}，不是支付成功` };
  const order = claim.orderNo ? await orderByNumber(db, claim.orderNo) : undefined;
  if (!order) return { status: 'rejected', reason: `订单不存在：${claim.orderNo ?? '无订单号'}` };
  if (order.app !== app.code) {
    // Another app's keys verified it: it cannot pay this app's order.
    return {
      status: 'rejected',
      reason: `订单属于应用「${app.nameOf(order.app)}」，通知来自应用「${app.nameOf(app.code)}」的商户设置`,
    };
  }
  if (claim.amount === null || claim.amount !== Number(order.amount)) {
    return { status: 'rejected', reason: `金额不符：通知 ${claim.amount ?? '无'} 分，订单 ${Number(order.amount)} 分` };
  }
  const paid = await payOrder(db, {
    orderId: order.id,
    method,
    transactionId: claim.transactionId,
    operatorId: null,
    note: `${method === 'alipay' ? '支付宝' : '微信支付'}异步通知`,
  });
  if (paid) return { status: 'applied', reason: null };
  const now = await orderStatus(db, order.id);
  const same = now.transaction_id === claim.transactionId;
  return {
    status: 'duplicate',
    reason: same
      ? '重复通知：订单已按这笔交易支付，未重复发放'
      : `订单状态为 ${now.status}（交易号 ${now.transaction_id ?? '无'}），未重复发放`,
  };
}
