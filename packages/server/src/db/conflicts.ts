import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './index';

/**
 * Lock conflicts PostgreSQL resolves by failing one transaction: a deadlock (40P01) or a
 * serialisation failure (40001). The failed transaction has been rolled back whole, so running it
 * again from its start is safe (its idempotency reservation went with it and is taken again).
 * Money paths take their locks in one order (core/money-lock.ts), so these are rare; what still
 * happens (another path's order, an operator's act on the same row) is retried here a few times,
 * with a random pause so the two sides do not meet again, and then answered as code 503 (the
 * client resends, with its Idempotency-Key), never as a 500. SQLite has one writer: never seen.
 */
const conflictCodes = new Set(['40P01', '40001']);

export function isLockConflict(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && conflictCodes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The Chinese answer of a conflict that outlived its retries (code 503, Retry-After 1). */
export const CONFLICT_MESSAGE = '系统繁忙，请稍后重试（可用同一 Idempotency-Key 重发）';

export const CONFLICT_ATTEMPTS = 4;

/** Runs `work` (a whole transaction) again on a lock conflict, up to CONFLICT_ATTEMPTS times in all. */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = CONFLICT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isLockConflict(error)) throw error;
      // 0-10 ms, then 0-20, 0-40: the survivor usually commits within a few milliseconds.
      await sleep(Math.random() * 5 * 2 ** attempt);
    }
  }
}

/** A transaction of its own, retried whole on a lock conflict. */
export function retriedTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return retryOnConflict(() => db.transaction().execute(work));
}
