import type { RoleView } from '@appdesk/contract/endpoints/roles';
import { type BuiltinRole, permissionList, withPageReads } from '@appdesk/contract/permissions';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import { containsText, countedTotal, iso } from '../../db/paging';
import type { RolesTable } from '../../db/schema';
import { fail } from '../../http/errors';
import { parseList } from '../operators/public';

export type RoleRow = Selectable<RolesTable>;

const everything = permissionList.map((p) => p.key);

/** A role's permissions as granted: 超级管理员 all of them, whatever is stored; the others with each page's 查看. */
export const permissionsOf = (role: RoleRow) =>
  role.builtin === 'super' ? everything : withPageReads(parseList(role.permissions) ?? []);

/** A role's apps as granted: 超级管理员 every app. */
export const appsOf = (role: RoleRow) => (role.builtin === 'super' ? null : parseList(role.apps));

function filtered(db: Db, search: string) {
  const text = search.trim();
  const all = db.selectFrom('roles');
  return text ? all.where(containsText(['name', 'description'], text)) : all;
}

/** 角色管理's list: the built-in roles first (they were made first), then the others as made. */
export function roleRows(db: Db, search: string) {
  return filtered(db, search).selectAll().orderBy('id');
}
export const roleTotal = (db: Db, search: string, exact?: boolean) => countedTotal(db, filtered(db, search), exact);

/** How many operators hold each role. */
export async function holdersOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('operator_roles')
    .select(['role_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('role_id', 'in', ids)
    .groupBy('role_id')
    .execute();
  return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
}

export function presentRole(role: RoleRow, holders: number): RoleView {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    builtin: role.builtin as BuiltinRole | null,
    permissions: permissionsOf(role),
    apps: appsOf(role),
    requireTotp: role.require_totp === 1,
    operators: holders,
    editable: role.builtin !== 'super',
    removable: role.builtin === null,
    createdAt: iso(role.created_at),
    updatedAt: iso(role.updated_at),
  };
}

export async function presentRoles(db: Db, rows: RoleRow[]): Promise<RoleView[]> {
  const holders = await holdersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentRole(r, holders.get(r.id) ?? 0));
}

export async function loadRoleRow(db: Db, id: number): Promise<RoleRow> {
  const row = await db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('角色不存在');
  return row;
}

export async function loadRole(db: Db, id: number): Promise<RoleView> {
  const [role] = await presentRoles(db, [await loadRoleRow(db, id)]);
  return role;
}

/** Role names are unique (the operators' lists and the log name roles by them). */
export async function refuseTakenName(db: Db, name: string, exceptId: number | null): Promise<void> {
  let query = db.selectFrom('roles').select('id').where('name', '=', name);
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw fail.conflict(`角色名称「${name}」已被使用`);
}
