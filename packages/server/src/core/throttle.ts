import { sql } from 'kysely';
import type { Db } from '../db/index';
import { fail } from '../http/errors';

/**
 * Counted limits kept in the database (the `login_attempts` table that sign-in throttling uses),
 * so restarts and several server processes share them: at most `max` units per key in a window
 * of `windowMs` that starts with the key's first unit. Registrations and verification mails
 * (features/users/throttle.ts), uploads (http/uploads.ts) and refused anonymous requests kept
 * (core/refusals.ts) are limited through it.
 */
export interface Limit {
  /** Stored key, e.g. `register:ip:1.2.3.4`. */
  key: string;
  max: number;
  windowMs: number;
  /** Chinese sentence before the retry time, e.g. 注册过于频繁. */
  refusal: string;
}

/** 请 45 秒后再试 / 请 12 分钟后再试 / 请 3 小时后再试 (up to 60 of a unit before the next). */
export function retryIn(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds <= 60) return `请 ${seconds} 秒后再试`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 60) return `请 ${minutes} 分钟后再试`;
  return `请 ${Math.ceil(minutes / 60)} 小时后再试`;
}

function refused(limit: Limit, windowStart: number, now: number) {
  return fail.tooMany(`${limit.refusal}，${retryIn(windowStart + limit.windowMs - now)}`);
}

/**
 * Takes `amount` units under the limit, atomically (a conditional upsert: concurrent callers
 * cannot pass `max` together); answers 429 saying when to retry, without counting, if they do
 * not fit. Inside a transaction the units are given back when it rolls back.
 */
export async function consume(db: Db, limit: Limit, amount = 1, now = Date.now()): Promise<void> {
  if (amount > limit.max) throw refused(limit, now, now);
  if (Math.random() < 0.01) await forgetExpired(db, now);
  const expired = sql<boolean>`${now} - login_attempts.window_start >= ${limit.windowMs}`;
  const taken = await db
    .insertInto('login_attempts')
    .values({ key: limit.key, failures: amount, window_start: now, locked_until: null })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          failures: sql`case when ${expired} then ${amount} else login_attempts.failures + ${amount} end`,
          window_start: sql`case when ${expired} then ${now} else login_attempts.window_start end`,
        })
        .where(sql<boolean>`(${expired}) or login_attempts.failures + ${amount} <= ${limit.max}`),
    )
    .returning('failures')
    .executeTakeFirst();
  if (taken) return;
  const row = await db
    .selectFrom('login_attempts')
    .select('window_start')
    .where('key', '=', limit.key)
    .executeTakeFirst();
  throw refused(limit, Number(row?.window_start ?? now), now);
}

/** Prefixes of the keys counted here (`phone:`, `ip:` and `pair:` are the sign-in throttle's own: core/login-throttle.ts). */
const COUNTED = [
  'register:',
  'mail:',
  'mail-day:',
  'upload:',
  'upload-bytes:',
  'feedback:',
  'refused:',
  'clienterror:',
];
/** Longer than any window used here (the daily mail numbers). */
const KEEP_MS = 2 * 24 * 60 * 60 * 1000;

/** Deletes counters whose window ended long ago (a few hundred at a time), so the table stays small. */
export async function forgetExpired(db: Db, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('login_attempts')
    .where('window_start', '<', now - KEEP_MS)
    .where((eb) => eb.or(COUNTED.map((prefix) => eb('key', 'like', `${prefix}%`))))
    .execute();
}

/** Answers 429 if not even `amount` more units fit now (a cheap look before expensive work); takes nothing. */
export async function assertRoom(db: Db, limit: Limit, amount = 1, now = Date.now()): Promise<void> {
  const row = await db
    .selectFrom('login_attempts')
    .select(['failures', 'window_start'])
    .where('key', '=', limit.key)
    .executeTakeFirst();
  if (!row) return;
  const start = Number(row.window_start);
  if (now - start >= limit.windowMs) return;
  if (Number(row.failures) + amount > limit.max) throw refused(limit, start, now);
}

/** Takes `amount` under every limit, or nothing at all (one transaction). */
export async function consumeAll(db: Db, limits: { limit: Limit; amount?: number }[], now = Date.now()): Promise<void> {
  const work = async (trx: Db) => {
    for (const { limit, amount } of limits) await consume(trx, limit, amount ?? 1, now);
  };
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}
