import { permissionLabel, withPageReads } from '@appdesk/contract/permissions';
import { grantsChanged } from '../../core/grants';
import { lockAdminChanges } from '../../core/operators';
import { shanghaiTime } from '../../db/paging';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { beyondActor, checkAppsExist, grantsOfCall, scopeWords } from '../operators/public';
import {
  appsOf,
  holdersOf,
  loadRole,
  loadRoleRow,
  permissionsOf,
  presentRoles,
  type RoleRow,
  refuseTakenName,
  roleRows,
  roleTotal,
} from './queries';

/**
 * A role the caller may change: never 超级管理员 (it holds everything, always), and only one
 * holding no more than the caller does, or a 角色管理 holder could widen another's reach.
 */
function refuseBeyondCaller(ctx: SignedInContext, role: RoleRow, change: string) {
  if (role.builtin === 'super') throw fail.forbidden(`「${role.name}」拥有全部权限与应用，不能${change}`);
  const why = beyondActor(grantsOfCall(ctx), permissionsOf(role), appsOf(role));
  if (why) throw fail.forbidden(`不能${change}「${role.name}」：${why}`);
}

/** A role's new permissions and apps: known apps, and nothing the caller does not hold themself. */
async function refuseBeyondCallerAfter(ctx: SignedInContext, permissions: string[], apps: string[] | null) {
  await checkAppsExist(ctx, apps);
  const why = beyondActor(grantsOfCall(ctx), permissions, apps);
  if (why) throw fail.forbidden(`不能把角色设成这样：${why}`);
}

/** What the log records of a role: its settings in words (permissions by label, apps by name). */
const logged = (role: RoleRow) => ({
  name: role.name,
  description: role.description,
  permissions: permissionsOf(role),
  ...scopeWords(appsOf(role)),
  requireTotp: role.require_totp === 1,
});

/** 角色管理's list; its export walks the same select. */
const rolesList = pagedRoute('/api/roles/fetch/page', {
  rows: (input, ctx) => roleRows(ctx.db, input.search),
  total: (input, ctx) => roleTotal(ctx.db, input.search, input.exactTotal),
  present: (rows, ctx) => presentRoles(ctx.db, rows),
});

export default defineRoutes({
  '/api/roles/fetch/page': rolesList,
  '/api/roles/export': listExport(rolesList, (ctx) => ({
    filename: '角色',
    columns: [
      { header: 'ID', width: 8, cell: (r) => r.id },
      { header: '角色名称', width: 16, cell: (r) => r.name },
      { header: '角色说明', width: 30, cell: (r) => r.description },
      { header: '内置角色', width: 10, cell: (r) => yesNo(r.builtin !== null) },
      {
        header: '权限',
        width: 60,
        cell: (r) => (r.builtin === 'super' ? '全部权限' : r.permissions.map(permissionLabel).join('、')),
      },
      {
        header: '可见应用',
        width: 24,
        cell: (r) => (r.apps ? r.apps.map((code) => ctx.apps.nameOf(code)).join('、') : '全部应用'),
      },
      { header: '登录需二次验证', width: 14, cell: (r) => yesNo(r.requireTotp) },
      { header: '操作员数', width: 10, cell: (r) => r.operators },
      { header: '创建时间', width: 18, cell: (r) => shanghaiTime(r.createdAt) },
      { header: '修改时间', width: 18, cell: (r) => shanghaiTime(r.updatedAt) },
    ],
  })),

  '/api/roles/fetch/detail': {
    handler: async (input, ctx) => ({ role: await loadRole(ctx.db, input.id) }),
  },

  '/api/roles/make': {
    transaction: true,
    message: '角色已创建',
    handler: async (input, ctx) => {
      const permissions = withPageReads(input.permissions);
      await refuseBeyondCallerAfter(ctx, permissions, input.apps);
      await refuseTakenName(ctx.db, input.name, null);
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('roles')
        .values({
          builtin: null,
          name: input.name,
          description: input.description,
          permissions: JSON.stringify(permissions),
          apps: input.apps === null ? null : JSON.stringify(input.apps),
          require_totp: input.requireTotp ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.audit({ targetId: id, after: logged(await loadRoleRow(ctx.db, id)) });
      return { role: await loadRole(ctx.db, id) };
    },
  },

  '/api/roles/update': {
    transaction: true,
    message: '角色已保存，持有它的操作员立即按新的权限生效',
    handler: async (input, ctx) => {
      const { id, name, description, permissions, apps, requireTotp } = input;
      const changes = { name, description, permissions, apps, requireTotp };
      const given = Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined);
      if (given.length === 0) throw fail.badInput('请至少修改一项');
      const before = await loadRoleRow(ctx.db, id);
      refuseBeyondCaller(ctx, before, '修改');
      const nextPermissions = permissions === undefined ? permissionsOf(before) : withPageReads(permissions);
      const nextApps = apps === undefined ? appsOf(before) : apps;
      await refuseBeyondCallerAfter(ctx, nextPermissions, nextApps);
      if (name !== undefined) await refuseTakenName(ctx.db, name, id);
      await ctx.db
        .updateTable('roles')
        .set({
          ...(name === undefined ? {} : { name }),
          ...(description === undefined ? {} : { description }),
          ...(permissions === undefined ? {} : { permissions: JSON.stringify(nextPermissions) }),
          ...(apps === undefined ? {} : { apps: apps === null ? null : JSON.stringify(apps) }),
          ...(requireTotp === undefined ? {} : { require_totp: requireTotp ? 1 : 0 }),
          updated_at: Date.now(),
        })
        .where('id', '=', id)
        .execute();
      const old = logged(before);
      const now = logged(await loadRoleRow(ctx.db, id));
      const added = now.permissions.filter((p) => !old.permissions.includes(p));
      const removed = old.permissions.filter((p) => !now.permissions.includes(p));
      await ctx.audit({
        targetId: id,
        before: old,
        after: {
          ...now,
          ...(added.length ? { permissionsAdded: added } : {}),
          ...(removed.length ? { permissionsRemoved: removed } : {}),
        },
      });
      // Its holders act under the new permissions from their next call on.
      ctx.afterCommit(grantsChanged);
      return { role: await loadRole(ctx.db, id) };
    },
  },

  '/api/roles/remove': {
    transaction: true,
    message: '角色已删除',
    handler: async (input, ctx) => {
      // Serialised with the operators' changes, so no one is given the role while it goes.
      await lockAdminChanges(ctx.db, ctx.dialect);
      const role = await loadRoleRow(ctx.db, input.id);
      if (role.builtin !== null) throw fail.forbidden(`「${role.name}」是内置角色，不能删除`);
      refuseBeyondCaller(ctx, role, '删除');
      const holders = (await holdersOf(ctx.db, [role.id])).get(role.id) ?? 0;
      if (holders > 0) {
        throw fail.conflict(`还有 ${holders} 位操作员持有「${role.name}」：请先在操作员管理中取消分配，再删除`);
      }
      await ctx.db.deleteFrom('roles').where('id', '=', role.id).execute();
      await ctx.audit({ targetId: role.id, before: logged(role) });
      ctx.afterCommit(grantsChanged);
      return { id: role.id };
    },
  },
});
