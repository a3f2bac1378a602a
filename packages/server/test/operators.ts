import type { Permission } from '@appdesk/contract/permissions';
import { sql } from 'kysely';
import { grantsChanged } from '../src/core/grants';
import { newUserRow } from '../src/core/new-user';
import { hashPassword } from '../src/core/passwords';
import { createSession } from '../src/core/sessions';
import type { Db } from '../src/db/index';
import { digest, nextPhone, type TestServer } from './harness';

export const OPERATOR_PASSWORD = 'Operator12345';
/** One password hash for every test operator: hashing is slow on purpose, and they sign in by token. */
let passwordHash: Promise<string> | undefined;

/**
 * Below every id the database hands out: a test's operators and their roles never take the ids
 * the contract's examples name (the first account or role a `make` example creates), so a
 * generated suite may add them before the examples run. Neither SQLite's AUTOINCREMENT nor a
 * PostgreSQL sequence moves for a row inserted with a negative id. Counted down per server from
 * the lowest ids there were, so that operators may be added side by side.
 */
const floors = new WeakMap<Db, Promise<{ users: number; roles: number }>>();
async function idsBelowAll(db: Db): Promise<{ user: number; role: number }> {
  const lowest = async (table: 'users' | 'roles') => {
    const { rows } = await sql<{ id: number | null }>`select min(id) as id from ${sql.table(table)}`.execute(db);
    return Math.min(Number(rows[0]?.id ?? 0), 0);
  };
  let floor = floors.get(db);
  if (!floor) {
    floor = Promise.all([lowest('users'), lowest('roles')]).then(([users, roles]) => ({ users, roles }));
    floors.set(db, floor);
  }
  const next = await floor;
  next.users -= 1;
  next.roles -= 1;
  return { user: next.users, role: next.roles };
}

/**
 * An operator written straight to the core tables, as 操作员管理 would leave one: an account with
 * is_admin, its row in `operators` limited to `apps` (absent or null: no limit of its own), and,
 * when it holds any permission, one role of its own holding exactly `permissions` (and, as every
 * role, each page's read where it holds another action of the page) in every app. No permissions:
 * an operator without a role, who may still call the console's ANY_OPERATOR plumbing. Answers a
 * signed-in session's token; its grants are read afresh on its first call.
 */
export async function addOperator(
  server: TestServer,
  { permissions, apps = null }: { permissions: readonly Permission[]; apps?: readonly string[] | null },
): Promise<string> {
  const db = server.app.services.db;
  const now = Date.now();
  passwordHash ??= digest(OPERATOR_PASSWORD).then(hashPassword);
  const ids = await idsBelowAll(db);
  const user = await db
    .insertInto('users')
    .values({
      ...newUserRow({ phone: nextPhone(), password_hash: await passwordHash, is_admin: 1 }, now),
      id: ids.user,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('operators')
    .values({ user_id: user.id, apps: apps && JSON.stringify(apps), created_at: now, updated_at: now })
    .execute();
  if (permissions.length > 0) {
    const role = await db
      .insertInto('roles')
      .values({
        id: ids.role,
        builtin: null,
        name: `测试角色 ${-user.id}`,
        description: '',
        permissions: JSON.stringify(permissions),
        apps: null,
        require_totp: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('operator_roles').values({ user_id: user.id, role_id: role.id }).execute();
  }
  grantsChanged();
  return createSession(db, user.id, { ip: null, userAgent: null });
}
