import type { BuiltinRole } from '@appdesk/contract/permissions';
import type { OperatorGrants } from '../../core/grants';
import type { Db } from '../../db/index';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { appsWithin, checkAppsExist, grantsOfCall, parseList, type RoleGrant, roleRefusal } from './public';

/** What keepLastSuperAdmin says when an operator's roles no longer include 超级管理员. */
export const SUPER_ROLE_LOST = '取消其「超级管理员」角色';

/**
 * Refuses giving roles the caller may not hand out, or an app limit beyond the apps they reach;
 * says which and why (the caller's grants are the call's).
 */
export async function checkGrant(
  ctx: SignedInContext,
  roles: readonly RoleGrant[],
  apps: readonly string[] | null | undefined,
): Promise<void> {
  const actor = grantsOfCall(ctx);
  for (const role of roles) {
    const why = roleRefusal(actor, role);
    if (why) throw fail.forbidden(`不能授予「${role.name}」：${why}`);
  }
  await checkAppsExist(ctx, apps);
  if (apps !== undefined && !appsWithin(apps, actor.apps)) {
    throw fail.forbidden(
      apps === null ? '你只能看到部分应用：请为操作员指定可见应用' : '可见应用超出了你自己能看到的应用',
    );
  }
}

/** Every role, with whether this operator may hand it out (the operator editor greys the others). */
export async function roleOptions(db: Db, actor: OperatorGrants) {
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'name', 'description', 'builtin', 'permissions', 'apps'])
    .orderBy('id')
    .execute();
  return rows.map((role) => {
    const why = roleRefusal(actor, role);
    return {
      id: role.id,
      name: role.name,
      description: role.description,
      builtin: role.builtin as BuiltinRole | null,
      apps: parseList(role.apps),
      grantable: why === null,
      why,
    };
  });
}
