import { sql } from 'kysely';
import type { Db, Dialect } from '../db/index';
import { fail } from '../http/errors';

/**
 * Makes an account an operator holding 超级管理员: the first administrator of first-run setup and
 * the command line's `admin grant` (whoever runs the server owns it). Idempotent. Roles are
 * otherwise given in 操作员管理, where an operator grants only what they hold themselves.
 */
export async function enrolSuperAdmin(db: Db, userId: number): Promise<void> {
  const now = Date.now();
  await db
    .updateTable('users')
    .set({ is_admin: 1, updated_at: now })
    .where('id', '=', userId)
    .where('is_admin', '=', 0)
    .execute();
  await db
    .insertInto('operators')
    .values({ user_id: userId, apps: null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const role = await db.selectFrom('roles').select('id').where('builtin', '=', 'super').executeTakeFirstOrThrow();
  await db
    .insertInto('operator_roles')
    .values({ user_id: userId, role_id: role.id })
    .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
    .execute();
}

/**
 * Changes of who is an operator, or of who holds 超级管理员, are serialised: PostgreSQL locks the
 * one allocation row; SQLite has one writer (its transactions begin immediate). So two operators
 * demoting each other at once can never leave the site without an enabled 超级管理员: the second
 * one reads what the first committed. Call it first in the change's transaction.
 */
export async function lockAdminChanges(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select id from allocation where id = 1 for update`.execute(db);
}

/** The enabled accounts holding 超级管理员 (operators who are not blocked), ids only. */
export async function enabledSuperAdmins(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('operator_roles')
    .innerJoin('roles', 'roles.id', 'operator_roles.role_id')
    .innerJoin('users', 'users.id', 'operator_roles.user_id')
    .select('users.id')
    .where('roles.builtin', '=', 'super')
    .where('users.is_admin', '=', 1)
    .where('users.status', '=', 'normal')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Refuses a change that would leave no enabled 超级管理员: `userId` is about to lose the role, be
 * disabled or stop being an operator. Whoever asks, themself included. Run it after lockAdminChanges.
 */
export async function keepLastSuperAdmin(db: Db, userId: number, change: string): Promise<void> {
  const holders = await enabledSuperAdmins(db);
  if (holders.includes(userId) && holders.length <= 1) {
    throw fail.forbidden(`不能${change}：这是最后一位启用中的超级管理员，请先让另一位操作员成为超级管理员`);
  }
}
