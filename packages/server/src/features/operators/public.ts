import { type Permission, permissionLabel, withPageReads } from '@appdesk/contract/permissions';
import { type OperatorGrants, readGrants } from '../../core/grants';
import { keepLastSuperAdmin, lockAdminChanges } from '../../core/operators';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';

/*
 * What one operator may hand out or act on, shared by 操作员管理, 角色管理 and 用户管理's account
 * actions: nobody gives more than they hold (docs/permissions.md#角色与操作员--roles-and-operators).
 */

/** A JSON array column (roles.permissions, roles.apps, operators.apps) as a list; null stays null. */
export function parseList(json: string | null): string[] | null {
  if (json === null) return null;
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

/** True when every app of `inner` is in `outer` (null: every app). */
export const appsWithin = (inner: readonly string[] | null, outer: readonly string[] | null): boolean =>
  outer === null || (inner?.every((app) => outer.includes(app)) ?? false);

/**
 * A scope as the operation log records it: 全部应用 (or, for an operator's own limit, none), or
 * the apps listed beside it (their names in the log: contract roles.ts `scopeFields`).
 */
export const scopeWords = (apps: readonly string[] | null) =>
  apps === null ? { appScope: 'all' } : { appScope: 'some', apps: [...apps] };

/** Refuses app codes no app has (apps are data: 应用管理). */
export async function checkAppsExist(ctx: SignedInContext, apps: readonly string[] | null | undefined) {
  for (const code of apps ?? []) if (!(await ctx.apps.get(code))) throw fail.badInput(`未知的应用：${code}`);
}

/** The call's operator: admin calls always carry their grants (http/route.ts). */
export function grantsOfCall(ctx: SignedInContext): OperatorGrants {
  if (!ctx.grants) throw new Error('an admin call without grants');
  return ctx.grants;
}

/**
 * Why the actor may not hand out these permissions in these apps (a role they make or change, a
 * role they give), or null when they hold all of it. A 超级管理员 holds everything.
 */
export function beyondActor(
  actor: OperatorGrants,
  permissions: readonly string[],
  apps: readonly string[] | null,
): string | null {
  if (actor.superAdmin) return null;
  const missing = withPageReads(permissions).filter((p: Permission) => !actor.permissions.has(p));
  if (missing.length > 0) {
    const more = missing.length > 1 ? `等 ${missing.length} 项权限` : '权限';
    return `你自己没有其中的「${permissionLabel(missing[0])}」${more}`;
  }
  if (!appsWithin(apps, actor.apps)) {
    return apps === null ? '它可见全部应用，而你只能看到部分应用' : '它可见的应用超出了你能看到的应用';
  }
  return null;
}

/** A role as the checks read it. */
export interface RoleGrant {
  name: string;
  builtin: string | null;
  permissions: string;
  apps: string | null;
}

/** Why the actor may not give this role, or null. Only a 超级管理员 gives 超级管理员. */
export function roleRefusal(actor: OperatorGrants, role: RoleGrant): string | null {
  if (actor.superAdmin) return null;
  if (role.builtin === 'super') return '只有超级管理员可以授予「超级管理员」';
  return beyondActor(actor, parseList(role.permissions) ?? [], parseList(role.apps));
}

/** True when the actor holds at least everything the target holds, in at least the target's apps. */
export function covers(actor: OperatorGrants, target: OperatorGrants): boolean {
  if (actor.superAdmin) return true;
  if (target.superAdmin) return false;
  return [...target.permissions].every((p) => actor.permissions.has(p)) && appsWithin(target.apps, actor.apps);
}

/**
 * Refuses acting on an operator who holds more than the actor (a permission, an app, 超级管理员):
 * otherwise a password reset or a new role would hand the actor that operator's reach.
 */
export async function refuseStrongerOperator(ctx: SignedInContext, targetId: number, change: string): Promise<void> {
  if (!covers(grantsOfCall(ctx), await readGrants(ctx.db, targetId))) {
    throw fail.forbidden(`不能${change}：该操作员的权限或可见应用超出了你自己的`);
  }
}

/**
 * 用户管理's actions on an account that is an operator's (block, unblock, reset its password):
 * only an operator who may manage operators and holds at least what that one holds; and the last
 * enabled 超级管理员 is never blocked. Nothing to check for an ordinary account.
 */
export async function guardOperatorAccount(
  ctx: SignedInContext,
  id: number,
  change: string,
  disables: boolean,
): Promise<void> {
  const row = await ctx.db.selectFrom('users').select('is_admin').where('id', '=', id).executeTakeFirst();
  if (row?.is_admin !== 1) return;
  if (!grantsOfCall(ctx).permissions.has('operators.manage')) {
    throw fail.forbidden(`该账号是操作员：${change}需要「${permissionLabel('operators.manage')}」的权限`);
  }
  await refuseStrongerOperator(ctx, id, change);
  if (disables) {
    await lockAdminChanges(ctx.db, ctx.dialect);
    await keepLastSuperAdmin(ctx.db, id, change);
  }
}
