import { createHash } from 'node:crypto';
import type { Quotas } from '../../config';
import { consume, consumeAll } from '../../core/throttle';
import type { Db } from '../../db/index';

/* Sign-ups and verification mails (sign-in has its own counters: core/login-throttle.ts). */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * Sign-ups per client address (docs/security.md#quotas): counted before any work, so probes count too.
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
