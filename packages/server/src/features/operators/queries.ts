import type { OperatorView } from '@appdesk/contract/endpoints/operators';
import { maskPhone } from '@appdesk/contract/format';
import type { BuiltinRole } from '@appdesk/contract/permissions';
import type { Db } from '../../db/index';
import { containsText, countedTotal, iso, isoOrNull } from '../../db/paging';
import { fail } from '../../http/errors';
import { parseList } from './public';

/** The list's filter (contract `/api/operators/fetch/page`). */
export interface OperatorFilter {
  search: string;
  status: 'all' | 'normal' | 'blocked';
  roleId?: number;
  exactTotal?: boolean;
}

/** An operator's account and own settings: users with is_admin = 1 (operators' row may be absent for one made by hand). */
function operators(db: Db) {
  return db.selectFrom('users').leftJoin('operators', 'operators.user_id', 'users.id').where('users.is_admin', '=', 1);
}

const columns = [
  'users.id',
  'users.phone',
  'users.nickname',
  'users.status',
  'users.must_change_password',
  'users.last_login_at',
  'users.created_at',
  'operators.apps',
] as const;

function filtered(db: Db, filter: OperatorFilter) {
  let query = operators(db);
  const text = filter.search.trim();
  if (text) {
    const asId = /^\d{1,10}$/.test(text) ? Number(text) : null;
    query = query.where((eb) =>
      asId === null
        ? containsText(['users.phone', 'users.nickname'], text)(eb)
        : eb.or([eb('users.id', '=', asId), containsText(['users.phone', 'users.nickname'], text)(eb)]),
    );
  }
  if (filter.status !== 'all') query = query.where('users.status', '=', filter.status);
  const roleId = filter.roleId;
  if (roleId !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('operator_roles')
          .select('operator_roles.user_id')
          .whereRef('operator_roles.user_id', '=', 'users.id')
          .where('operator_roles.role_id', '=', roleId),
      ),
    );
  }
  return query;
}

/** 操作员管理's list, newest operator first: the rows of one page, and the filter's total. */
export function operatorRows(db: Db, filter: OperatorFilter) {
  return filtered(db, filter).select(columns).orderBy('users.id', 'desc');
}
export function operatorTotal(db: Db, filter: OperatorFilter) {
  return countedTotal(db, filtered(db, filter), filter.exactTotal);
}
export type OperatorRow = Awaited<ReturnType<ReturnType<typeof operatorRows>['execute']>>[number];

/** Each operator's roles, by name, in the roles' order. */
async function rolesOf(db: Db, ids: number[]) {
  if (ids.length === 0) return new Map<number, OperatorView['roles']>();
  const rows = await db
    .selectFrom('operator_roles')
    .innerJoin('roles', 'roles.id', 'operator_roles.role_id')
    .select(['operator_roles.user_id', 'roles.id', 'roles.name', 'roles.builtin'])
    .where('operator_roles.user_id', 'in', ids)
    .orderBy('roles.id')
    .execute();
  const held = new Map<number, OperatorView['roles']>();
  for (const r of rows) {
    const list = held.get(r.user_id) ?? [];
    list.push({ id: r.id, name: r.name, builtin: r.builtin as BuiltinRole | null });
    held.set(r.user_id, list);
  }
  return held;
}

/** Operators as the console shows them: phones masked, roles by name. */
export async function presentOperators(db: Db, rows: OperatorRow[]): Promise<OperatorView[]> {
  const held = await rolesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const roles = held.get(r.id) ?? [];
    return {
      id: r.id,
      phone: maskPhone(r.phone),
      name: r.nickname || maskPhone(r.phone),
      nickname: r.nickname,
      status: r.status,
      roles,
      apps: parseList(r.apps),
      superAdmin: roles.some((role) => role.builtin === 'super'),
      mustChangePassword: r.must_change_password === 1,
      lastLoginAt: isoOrNull(r.last_login_at),
      createdAt: iso(r.created_at),
    };
  });
}

/** One operator, or 404 (an account that is not an operator is not one here). */
export async function loadOperator(db: Db, id: number): Promise<OperatorView> {
  const row = await operators(db).select(columns).where('users.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('操作员不存在（该账号不是管理员）');
  const [operator] = await presentOperators(db, [row]);
  return operator;
}

/** The roles by id, as the grant checks read them; an id no role has is refused. */
export async function rolesByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'name', 'builtin', 'permissions', 'apps'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
  const missing = ids.find((id) => !rows.some((r) => r.id === id));
  if (missing !== undefined) throw fail.badInput(`角色不存在：ID ${missing}`);
  return rows;
}

/** Replaces an operator's roles and own app limit (the operators row is made when missing). */
export async function saveOperator(
  db: Db,
  userId: number,
  change: { roleIds?: readonly number[]; apps?: readonly string[] | null },
): Promise<void> {
  const now = Date.now();
  const apps = change.apps === undefined ? undefined : change.apps === null ? null : JSON.stringify(change.apps);
  await db
    .insertInto('operators')
    .values({ user_id: userId, apps: apps ?? null, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet(apps === undefined ? { updated_at: now } : { apps, updated_at: now }),
    )
    .execute();
  if (change.roleIds === undefined) return;
  await db.deleteFrom('operator_roles').where('user_id', '=', userId).execute();
  if (change.roleIds.length > 0) {
    await db
      .insertInto('operator_roles')
      .values(change.roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })))
      .execute();
  }
}

/** Takes an account out of the console: its roles and operators row go (users.is_admin is the caller's). */
export async function dropOperator(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('operator_roles').where('user_id', '=', userId).execute();
  await db.deleteFrom('operators').where('user_id', '=', userId).execute();
}
