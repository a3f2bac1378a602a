import type { Db } from '../db/index';
import { ApiError } from '../http/errors';
import { assertRoom, consumeAll, type Limit } from './throttle';

/**
 * What an anonymous caller's refused request may leave behind (a platform notification that did
 * not verify, for instance): anyone can send them, so they cost the sender, not the disk. Keep at
 * most a clipped excerpt of each (clip), and only so many an hour per client address and in all
 * (keepWithin); past that, refuse without a write.
 */

/** The first `maxBytes` of `text` in UTF-8, cut at a character boundary, marked … when cut. */
export function clip(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const cut = Buffer.from(text)
    .subarray(0, maxBytes - 3)
    .toString('utf8');
  // A character cut in half decodes as U+FFFD: drop it.
  return `${cut.replace(/\uFFFD$/, '')}…`;
}

export interface RefusalQuota {
  /** Names the counters: `refused:<name>:ip:<address>` and `refused:<name>:all`. */
  name: string;
  ip: string;
  perAddressPerHour: number;
  perHour: number;
}

const HOUR = 60 * 60 * 1000;

/**
 * Runs `write` in a transaction with one unit of each of the hour's allowances (per address and in
 * all) if both have room, and answers whether it ran. A full allowance is no error: the caller
 * refuses either way. A look comes first (a read), so a flood past its allowance costs no write.
 */
export async function keepWithin(
  db: Db,
  quota: RefusalQuota,
  write: (trx: Db) => Promise<unknown>,
  now = Date.now(),
): Promise<boolean> {
  const limit = (key: string, max: number): Limit => ({ key, max, windowMs: HOUR, refusal: '被拒绝的请求过多' });
  const limits = [
    limit(`refused:${quota.name}:ip:${quota.ip}`, quota.perAddressPerHour),
    limit(`refused:${quota.name}:all`, quota.perHour),
  ];
  try {
    for (const one of limits) await assertRoom(db, one, 1, now);
    await db.transaction().execute(async (trx) => {
      await consumeAll(
        trx,
        limits.map((one) => ({ limit: one })),
        now,
      );
      await write(trx);
    });
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}
