import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Quotas } from '../../config';
import { consume, consumeAll } from '../../core/throttle';
import type { Db } from '../../db/index';
import { fail } from '../../http/errors';

/**
 * Sign-in throttling, kept in the database so restarts and several server processes share
 * it. Failures are counted per phone and per IP inside a window; past the limit the key is
 * locked until the window ends.
 */
export const throttleRules = {
  phone: { maxFailures: 10, windowMs: 15 * 60 * 1000 },
  ip: { maxFailures: 50, windowMs: 15 * 60 * 1000 },
} as const;

const keysFor = (phone: string, ip: string) => [
  { key: `phone:${phone}`, rule: throttleRules.phone },
  { key: `ip:${ip}`, rule: throttleRules.ip },
];

/** Answers 429 (with when to retry) if the phone or the address is locked. */
export async function assertNotLocked(db: Db, phone: string, ip: string): Promise<void> {
  const now = Date.now();
  const rows = await db
    .selectFrom('login_attempts')
    .select(['key', 'locked_until'])
    .where(
      'key',
      'in',
      keysFor(phone, ip).map((k) => k.key),
    )
    .execute();
  const lockedUntil = Math.max(0, ...rows.map((r) => r.locked_until ?? 0));
  if (lockedUntil > now) {
    const minutes = Math.max(1, Math.ceil((lockedUntil - now) / 60_000));
    throw fail.tooMany(`登录失败次数过多，请 ${minutes} 分钟后再试`);
  }
}

/** Counts one failure against the phone and the address (atomic upserts), locking either at its limit. */
export async function recordFailure(db: Db, phone: string, ip: string): Promise<void> {
  const now = Date.now();
  for (const { key, rule } of keysFor(phone, ip)) {
    const windowOver = sql<boolean>`${now} - login_attempts.window_start >= ${rule.windowMs}`;
    await db
      .insertInto('login_attempts')
      .values({ key, failures: 1, window_start: now, locked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`case when ${windowOver} then 1 else login_attempts.failures + 1 end`,
          window_start: sql`case when ${windowOver} then ${now} else login_attempts.window_start end`,
        }),
      )
      .execute();
    await db
      .updateTable('login_attempts')
      .set({ locked_until: now + rule.windowMs })
      .where('key', '=', key)
      .where('failures', '>=', rule.maxFailures)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .execute();
  }
}

/** A successful sign-in clears the phone's count (not the address's). */
export async function clearFailures(db: Db, phone: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('key', '=', `phone:${phone}`).execute();
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * Sign-ups per client address (README "Quotas"): counted before any work, so probes count too.
 * Inside the idempotency transaction a retried registration is answered before it gets here.
 */
export async function takeRegistration(db: Db, quotas: Quotas, ip: string): Promise<void> {
  await consume(db, {
    key: `register:ip:${ip}`,
    max: quotas.registrationsPerAddressPerHour,
    windowMs: HOUR,
    refusal: '注册过于频繁',
  });
}

/**
 * Verification mails: one per account per interval, a daily number per account and per recipient,
 * an hourly number per client address; all or none is counted.
 */
export async function takeVerificationMail(
  db: Db,
  quotas: Quotas,
  who: { userId: number; email: string; ip: string },
): Promise<void> {
  // The recipient is personal data: only a digest of it is kept.
  const to = createHash('sha256').update(who.email.toLowerCase()).digest('hex').slice(0, 32);
  await consumeAll(db, [
    {
      limit: {
        key: `mail:user:${who.userId}`,
        max: 1,
        windowMs: quotas.mailIntervalMs,
        refusal: '验证邮件发送过于频繁',
      },
    },
    {
      limit: {
        key: `mail-day:user:${who.userId}`,
        max: quotas.mailsPerAccountPerDay,
        windowMs: DAY,
        refusal: '今天发送的验证邮件已达上限',
      },
    },
    {
      limit: {
        key: `mail-day:to:${to}`,
        max: quotas.mailsPerAccountPerDay,
        windowMs: DAY,
        refusal: '该邮箱今天收到的验证邮件已达上限',
      },
    },
    {
      limit: {
        key: `mail:ip:${who.ip}`,
        max: quotas.mailsPerAddressPerHour,
        windowMs: HOUR,
        refusal: '验证邮件发送过于频繁',
      },
    },
  ]);
}
