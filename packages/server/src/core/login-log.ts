import { signInAudit } from '@appdesk/contract/endpoints/audit';
import type { Db } from '../db/index';
import { writeAudit } from './audit';

/** Why a sign-in attempt ended as it did (the contract's loginReasons label them). */
export type LoginReason =
  | 'success'
  | 'wrong_password'
  | 'unknown_phone'
  | 'locked'
  | 'blocked'
  | 'phone_taken'
  // Two-factor sign-in: the password was right and a code is awaited; a wrong (or replayed) code; a recovery code spent.
  | 'second_factor'
  | 'wrong_code'
  | 'recovery_code';

/** The attempts that signed in (a recovery code is one). */
const succeeded = (reason: LoginReason) => reason === 'success' || reason === 'recovery_code';

/**
 * One 登录日志 row per sign-in attempt (and per registration that met an existing phone). Never
 * the password, its digest or a token; the phone is stored whole to filter by and shown masked.
 * An operator's successful sign-in is also an operation-log row (登录后台), with address and agent,
 * and which second factor it took when it took one.
 */
export async function recordLogin(
  db: Db,
  entry: {
    userId: number | null;
    phone: string;
    reason: LoginReason;
    code: number;
    ip: string;
    userAgent: string | null;
    secondFactor?: 'code' | 'recovery';
  },
): Promise<void> {
  await db
    .insertInto('login_log')
    .values({
      user_id: entry.userId,
      phone: entry.phone,
      success: succeeded(entry.reason) ? 1 : 0,
      reason: entry.reason,
      code: entry.code,
      ip: entry.ip,
      user_agent: entry.userAgent?.slice(0, 300) ?? null,
      created_at: Date.now(),
    })
    .execute();
  if (!succeeded(entry.reason) || entry.userId === null) return;
  const account = await db.selectFrom('users').select('is_admin').where('id', '=', entry.userId).executeTakeFirst();
  if (!account?.is_admin) return;
  await writeAudit(db, {
    actorId: entry.userId,
    action: signInAudit.action,
    targetType: signInAudit.target.type,
    targetId: entry.userId,
    after: {
      ip: entry.ip,
      device: entry.userAgent?.slice(0, 300) ?? null,
      ...(entry.secondFactor ? { secondFactor: entry.secondFactor } : {}),
    },
    ip: entry.ip,
  });
}
