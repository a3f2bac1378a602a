import type { Db } from '../db/index';

/** Why a sign-in attempt ended as it did (the contract's loginReasons label them). */
export type LoginReason = 'success' | 'wrong_password' | 'unknown_phone' | 'locked' | 'blocked' | 'phone_taken';

/**
 * One 登录日志 row per sign-in attempt (and per registration that met an existing phone). Never
 * the password, its digest or a token; the phone is stored whole to filter by and shown masked.
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
}
