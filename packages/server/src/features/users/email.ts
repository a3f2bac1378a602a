import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { hashToken } from '../../core/sessions';
import type { Db } from '../../db/index';

const VALID_MS = 24 * 60 * 60 * 1000;

/**
 * Starts verification of a new email address: stores a one-time token (as its hash) and sends
 * the link by SMTP, or, with no SMTP server configured, writes the link to the log so an
 * operator running locally can still follow it.
 */
export async function sendEmailVerification(
  deps: { db: Db; config: Config; log: FastifyBaseLogger },
  userId: number,
  email: string,
): Promise<boolean> {
  const token = randomBytes(24).toString('base64url');
  const now = Date.now();
  await deps.db
    .insertInto('email_tokens')
    .values({
      user_id: userId,
      email,
      token_hash: hashToken(token),
      expires_at: now + VALID_MS,
      used_at: null,
      created_at: now,
    })
    .execute();
  const link = `${deps.config.publicUrl}/email/validate?token=${token}`;
  if (!deps.config.smtpUrl) {
    deps.log.info({ userId, link }, 'email verification link (no SMTP_URL configured, not sent)');
    return false;
  }
  try {
    const { default: nodemailer } = await import('nodemailer'); // loaded only where SMTP is configured
    await nodemailer.createTransport(deps.config.smtpUrl).sendMail({
      from: deps.config.smtpFrom,
      to: email,
      subject: '请验证您的邮箱',
      text: `您好，请在 24 小时内打开下面的链接完成邮箱验证：\n\n${link}\n\n如果这不是您本人的操作，请忽略本邮件。`,
    });
    return true;
  } catch (error) {
    deps.log.error({ err: error, userId }, 'sending the verification email failed');
    return false;
  }
}
