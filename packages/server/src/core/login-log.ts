import { signInAudit } from '@appdesk/contract/endpoints/audit';
import type { Db } from '../db/index';
import { writeAudit } from './audit';

/** Why a sign-in attempt ended as it did (the contract's loginReasons label them). */
export type LoginReason = 'success' | 'wrong_password' | 'unknown_phone' | 'locked' | 'blocked' | 'phone_taken';

/**
 * One 登录日志 row per sign-in attempt (and per registration that met an existing phone). Never
 * the password, its digest or a token; the phone is stored whole to filter by and shown masked.
 * An operator's successful sign-in is also an operation-log row (登录后台), with address and agent.
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
  },
): Promise<void> {
  await db
    .insertInto('login_log')
    .values({
      user_id: entry.userId,
      phone: entry.phone,
      success: entry.reason === 'success' ? 1 : 0,
      reason: entry.reason,
      code: entry.code,
      ip: entry.ip,
      user_agent: entry.userAgent?.slice(0, 300) ?? null,
      created_at: Date.now(),
    })
    .execute();
  if (entry.reason !== 'success' || entry.userId === null) return;
  const account = await db.selectFrom('users').select('is_admin').where('id', '=', entry.userId).executeTakeFirst();
  if (!account?.is_admin) return;
  await writeAudit(db, {
    actorId: entry.userId,
    action: signInAudit.action,
    targetType: signInAudit.target.type,
    targetId: entry.userId,
    after: { ip: entry.ip, device: entry.userAgent?.slice(0, 300) ?? null },
    ip: entry.ip,
  });
}
