import { builtinRoles, endpointEntries, permissionList } from '@appdesk/contract';
import { expect } from 'vitest';
import { expectClean } from '../clean';
import type { TestServer } from '../harness';

/**
 * Issue 30, done-when 7: on an upgraded site (upgrade.test.ts) the administrators of before are
 * operators holding exactly 超级管理员 and nothing else changed: no account gained or lost the
 * admin flag, no other account became an operator, the six built-in roles are there as the
 * contract defines them, and every admin endpoint still lets those administrators through.
 * `admins`: the ids of the old site's administrators, read before this release started on it.
 */
export async function assertAdminsBecameSuper(server: TestServer, admins: number[], adminToken: string): Promise<void> {
  const db = server.app.services.db;
  expect(admins.length).toBeGreaterThan(0);

  const roles = await db
    .selectFrom('roles')
    .select(['builtin', 'name', 'description', 'permissions', 'apps', 'require_totp'])
    .orderBy('id')
    .execute();
  expect(roles.map((r) => ({ ...r, permissions: JSON.parse(r.permissions) }))).toEqual(
    Object.entries(builtinRoles).map(([builtin, role]) => ({
      builtin,
      name: role.name,
      description: role.description,
      // 超级管理员 holds every permission whatever is stored (core/grants.ts): it stores none.
      permissions: builtin === 'super' ? [] : [...role.permissions],
      apps: null,
      require_totp: 0,
    })),
  );

  const flagged = await db.selectFrom('users').select('id').where('is_admin', '=', 1).orderBy('id').execute();
  expect(flagged.map((u) => u.id)).toEqual(admins);
  const operators = await db.selectFrom('operators').select(['user_id', 'apps']).orderBy('user_id').execute();
  expect(operators).toEqual(admins.map((id) => ({ user_id: id, apps: null })));
  const held = await db
    .selectFrom('operator_roles')
    .innerJoin('roles', 'roles.id', 'operator_roles.role_id')
    .select(['operator_roles.user_id', 'roles.builtin'])
    .orderBy('operator_roles.user_id')
    .execute();
  expect(held).toEqual(admins.map((id) => ({ user_id: id, builtin: 'super' })));

  // Their sessions of before carry every permission in every app.
  const me = await server.call('/api/operators/fetch/me', {}, adminToken);
  expect(me.body.data).toMatchObject({
    permissions: permissionList.map((p) => p.key),
    apps: null,
    superAdmin: true,
  });

  // Every admin endpoint lets them through to its input check: a body that is no object is
  // refused for what it is (400), never for who sends it, and no handler runs.
  const refused: string[] = [];
  for (const [p, def] of endpointEntries.filter(([, def]) => def.access === 'admin')) {
    const runs = server.handlerRuns.get(p) ?? 0;
    const answer = await server.call(p, [], adminToken);
    expectClean(answer);
    if (answer.body.code !== 400 || (server.handlerRuns.get(p) ?? 0) !== runs) {
      refused.push(`${p} (${def.permission}): ${answer.body.code} ${answer.body.message}`);
    }
  }
  expect(refused).toEqual([]);
}
