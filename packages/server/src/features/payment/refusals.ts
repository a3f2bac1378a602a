import { assertRoom, consumeAll, type Limit } from '../../core/throttle';
import type { Db } from '../../db/index';
import { ApiError } from '../../http/errors';

/**
 * Notifications that did not verify. Anyone can post them, so they cost the poster's disk space,
 * not ours: of each one at most a short excerpt is kept, with why it was refused, and only so many
 * an hour per client address and in all; past that, and whenever the method is not configured,
 * it is refused without a write. Verified notifications are kept whole (apply.ts).
 */

/**
 * The largest notification body read. Alipay's form and WeChat Pay's callback are a few KB (the
 * longest fields are a 256-character subject and 512 characters of passback parameters); a body
 * over this is answered 413 unparsed and unkept.
 */
export const NOTIFICATION_MAX_BYTES = 64 * 1024;

/** The most of a refused notification kept: its excerpt, and its reason (UTF-8 bytes each). */
export const EXCERPT_BYTES = 1024;
/** Refused notifications kept per client address per hour. */
export const REFUSED_PER_ADDRESS_PER_HOUR = 10;
/** Refused notifications kept per hour from all addresses together. */
export const REFUSED_PER_HOUR = 100;
/** A claimed order number or transaction id is kept up to this many characters. */
const CLAIM_CHARS = 64;

const HOUR = 60 * 60 * 1000;

/** The first `maxBytes` of `text` in UTF-8, cut at a character boundary, marked … when cut. */
export function clip(text: string, maxBytes = EXCERPT_BYTES): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const cut = Buffer.from(text)
    .subarray(0, maxBytes - 3)
    .toString('utf8');
  // A character cut in half decodes as U+FFFD: drop it.
  return `${cut.replace(/\uFFFD$/, '')}…`;
}

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

/**
 * Keeps a refused notification's excerpt if the hour's allowances have room (per address and in
 * all), taken in the same transaction as the row; answers whether it was kept. Never throws for a
 * full allowance: the notification is refused either way.
 */
export async function keepRefusal(db: Db, refusal: Refusal, now = Date.now()): Promise<boolean> {
  const limit = (key: string, max: number): Limit => ({ key, max, windowMs: HOUR, refusal: '被拒绝的支付通知过多' });
  const limits = [
    limit(`payment-refused:ip:${refusal.ip}`, REFUSED_PER_ADDRESS_PER_HOUR),
    limit('payment-refused:all', REFUSED_PER_HOUR),
  ];
  try {
    // A look first (a read): a flood past its allowance costs no write transaction at all.
    for (const one of limits) await assertRoom(db, one, 1, now);
    await db.transaction().execute(async (trx) => {
      await consumeAll(
        trx,
        limits.map((one) => ({ limit: one })),
        now,
      );
      await trx
        .insertInto('payment_notifications')
        .values({
          method: refusal.method,
          order_no: claimed(refusal.orderNo),
          transaction_id: claimed(refusal.transactionId),
          amount: refusal.amount,
          status: 'rejected',
          reason: clip(refusal.reason, 256),
          payload: clip(refusal.received),
          created_at: now,
        })
        .execute();
    });
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}
