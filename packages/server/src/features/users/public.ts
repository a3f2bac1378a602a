import { revokeUserSessions } from '../../core/sessions';
import type { Db } from '../../db/index';
import { fail } from '../../http/errors';
import { forgetSoonestBlock } from './blocks';
import { type AdminUserRow, adminUserColumns, withVip } from './presenter';

export { presentAdminUser } from './presenter';

/** One account as operators see it; its VIP expiry is the latest of any app's (the detail lists each). */
export async function loadUserRow(db: Db, id: number): Promise<AdminUserRow> {
  const row = await db.selectFrom('users').select(adminUserColumns).where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('用户不存在');
  const [user] = await withVip(db, [row], undefined);
  return user;
}

/*
 * The account writes 用户管理 shares with 操作员管理 (its 停用, 启用 and 重置密码 are these, on an
 * operator's account): one code path, so a disabled operator is out exactly as a blocked user is.
 */

/**
 * Blocks (until `blockedUntil`, or until lifted when null) or unblocks an account. A blocked
 * account's sessions end at once, not at their next expiry.
 */
export async function setAccountStatus(
  db: Db,
  id: number,
  status: 'normal' | 'blocked',
  blockedUntil: number | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ status, blocked_until: blockedUntil, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
  if (blockedUntil !== null) forgetSoonestBlock();
  if (status === 'blocked') await revokeUserSessions(db, id);
}

/**
 * Gives an account a password someone else chose (core/passwords.ts initialPassword): it must be
 * changed at the next sign-in, and whoever held the old one (or a token from it) is out at once.
 */
export async function setInitialPassword(db: Db, id: number, hash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: hash, must_change_password: 1, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
  await revokeUserSessions(db, id);
}
