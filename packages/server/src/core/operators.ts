import type { Db } from '../db/index';

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
