import { clip, keepWithin } from '../../core/refusals';
import type { PaymentDb } from './tables';

/**
 * Notifications that did not verify. Anyone can post them, so they cost the poster, not the disk:
 * of each one at most a short excerpt is kept, with why it was refused, and only so many an hour
 * per client address and in all; past that, and whenever the method is not configured, it is
 * refused without a write. Verified notifications are kept whole (apply.ts).
 */

/**
 * The largest notification body read. Alipay's form and WeChat Pay's callback are a few KB (the
 * longest fields are a 256-character subject and 512 characters of passback parameters); a body
 * over this is answered 413 unparsed and unkept.
 */
export const NOTIFICATION_MAX_BYTES = 64 * 1024;

/** The most of a refused notification kept: its excerpt (UTF-8 bytes). */
export const EXCERPT_BYTES = 1024;
/** The most of its reason kept (UTF-8 bytes). */
export const REASON_BYTES = 256;
/** Refused notifications kept per client address per hour. */
export const REFUSED_PER_ADDRESS_PER_HOUR = 10;
/** Refused notifications kept per hour from all addresses together. */
export const REFUSED_PER_HOUR = 100;
/** A claimed order number or transaction id is kept up to this many characters. */
const CLAIM_CHARS = 64;

const claimed = (value: string | null) => (value === null ? null : value.slice(0, CLAIM_CHARS));

export interface Refusal {
  method: 'alipay' | 'wechat';
  reason: string;
  orderNo: string | null;
  transactionId: string | null;
  amount: number | null;
  /** What arrived, whole: only its first EXCERPT_BYTES are kept. */
  received: string;
  ip: string;
}

/** Keeps a refused notification's excerpt if the hour's allowances have room; answers whether it did. */
export function keepRefusal(db: PaymentDb, refusal: Refusal, now = Date.now()): Promise<boolean> {
  const quota = {
    name: 'payment',
    ip: refusal.ip,
    perAddressPerHour: REFUSED_PER_ADDRESS_PER_HOUR,
    perHour: REFUSED_PER_HOUR,
  };
  return keepWithin(
    db,
    quota,
    (trx) =>
      trx
        .insertInto('payment_notifications')
        .values({
          method: refusal.method,
          app: null,
          order_no: claimed(refusal.orderNo),
          transaction_id: claimed(refusal.transactionId),
          amount: refusal.amount,
          status: 'rejected',
          reason: clip(refusal.reason, REASON_BYTES),
          payload: clip(refusal.received, EXCERPT_BYTES),
          created_at: now,
        })
        .execute(),
    now,
  );
}
