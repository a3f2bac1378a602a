import { operatorStatuses } from '@appdesk/contract/endpoints/operators';
import { maskPhone } from '@appdesk/contract/format';
import { grantsChanged } from '../../core/grants';
import { newUserRow } from '../../core/new-user';
import { keepLastSuperAdmin, lockAdminChanges } from '../../core/operators';
import { initialPassword } from '../../core/passwords';
import { revokeUserSessions } from '../../core/sessions';
import { shanghaiTime } from '../../db/paging';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, wordsOf, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { loadUserRow, presentAdminUser, setAccountStatus, setInitialPassword } from '../users/public';
import { grantsOfCall, refuseStrongerOperator, scopeWords } from './public';
import {
  dropOperator,
  loadOperator,
  operatorRows,
  operatorTotal,
  presentOperators,
  rolesByIds,
  saveOperator,
} from './queries';
import { checkGrant, roleOptions, SUPER_ROLE_LOST } from './scope';

/** An account the call acts on as an operator: never the caller's own (for that: 个人中心). */
async function operatorToChange(ctx: SignedInContext, id: number, change: string) {
  if (id === ctx.user.id) throw fail.forbidden(`这是你自己的账号：不能${change}，请让另一位操作员操作`);
  await lockAdminChanges(ctx.db, ctx.dialect);
  const operator = await loadOperator(ctx.db, id);
  await refuseStrongerOperator(ctx, id, change);
  return operator;
}

/** After a committed change of roles or operators: every kept grant of this instance is read again. */
const regrant = (ctx: SignedInContext) => ctx.afterCommit(grantsChanged);

/** 停用 and 启用: the users' block code path (users/public.ts), on an operator. */
async function setEnabled(ctx: SignedInContext, id: number, enabled: boolean, reason: string | undefined) {
  const change = enabled ? '启用' : '停用';
  const before = await operatorToChange(ctx, id, change);
  if (!enabled) await keepLastSuperAdmin(ctx.db, id, change);
  const status = enabled ? 'normal' : 'blocked';
  await setAccountStatus(ctx.db, id, status, null);
  await ctx.audit({ targetId: id, before: { status: before.status }, after: { status, reason } });
  regrant(ctx);
  return { operator: await loadOperator(ctx.db, id) };
}

/** 操作员管理's list; its export walks the same select. */
const operatorsList = pagedRoute('/api/operators/fetch/page', {
  rows: (input, ctx) => operatorRows(ctx.db, input),
  total: (input, ctx) => operatorTotal(ctx.db, input),
  present: (rows, ctx) => presentOperators(ctx.db, rows),
});
const statusWord = wordsOf(operatorStatuses);

export default defineRoutes({
  '/api/operators/fetch/me': {
    handler: async (_input, ctx) => {
      const grants = grantsOfCall(ctx);
      return {
        permissions: [...grants.permissions],
        apps: grants.apps ? [...grants.apps] : null,
        superAdmin: grants.superAdmin,
      };
    },
  },

  '/api/operators/fetch/page': operatorsList,
  '/api/operators/export': listExport(operatorsList, (ctx) => ({
    filename: '操作员',
    columns: [
      { header: 'ID', width: 8, cell: (o) => o.id },
      // Masked as the list shows it: an export never holds a whole number.
      { header: '手机号', width: 14, cell: (o) => o.phone },
      { header: '昵称', width: 16, cell: (o) => o.nickname },
      { header: '状态', width: 8, cell: (o) => statusWord(o.status) },
      { header: '角色', width: 24, cell: (o) => o.roles.map((r) => r.name).join('、') },
      {
        header: '可见应用',
        width: 24,
        cell: (o) => (o.apps ? o.apps.map((code) => ctx.apps.nameOf(code)).join('、') : '按角色（不另外限定）'),
      },
      { header: '超级管理员', width: 10, cell: (o) => yesNo(o.superAdmin) },
      { header: '需修改密码', width: 10, cell: (o) => yesNo(o.mustChangePassword) },
      { header: '最近登录', width: 18, cell: (o) => shanghaiTime(o.lastLoginAt) },
      { header: '创建时间', width: 18, cell: (o) => shanghaiTime(o.createdAt) },
    ],
  })),

  '/api/operators/fetch/roles': {
    handler: async (_input, ctx) => ({ list: await roleOptions(ctx.db, grantsOfCall(ctx)) }),
  },

  '/api/operators/make': {
    message: '操作员已创建，请把初始密码告知本人；首次登录须先修改密码',
    handler: async (input, ctx) => {
      // Hashed before the transaction, so the write lock is not held for argon2's time.
      const { password, hash } = await initialPassword();
      return ctx.inTransaction(async (tx) => {
        await lockAdminChanges(tx.db, tx.dialect);
        const taken = await tx.db
          .selectFrom('users')
          .select('is_admin')
          .where('phone', '=', input.phone)
          .executeTakeFirst();
        if (taken?.is_admin === 1) throw fail.conflict('该手机号已是操作员');
        if (taken) throw fail.conflict('该手机号已注册：请在「用户管理」中把它设为管理员，再在这里分配角色');
        const roles = await rolesByIds(tx.db, input.roleIds);
        await checkGrant(tx, roles, input.apps);
        const { id } = await tx.db
          .insertInto('users')
          .values(
            newUserRow({
              phone: input.phone,
              password_hash: hash,
              nickname: input.nickname,
              is_admin: 1,
              must_change_password: 1,
            }),
          )
          .returning('id')
          .executeTakeFirstOrThrow();
        await saveOperator(tx.db, id, { roleIds: input.roleIds, apps: input.apps });
        await refuseStrongerOperator(tx, id, '这样创建');
        await tx.audit({
          targetId: id,
          after: {
            phone: maskPhone(input.phone),
            nickname: input.nickname,
            roles: roles.map((r) => r.name),
            ...scopeWords(input.apps),
            mustChangePassword: true,
          },
        });
        regrant(tx);
        return { operator: await loadOperator(tx.db, id), password };
      });
    },
  },

  '/api/operators/update': {
    transaction: true,
    message: '操作员已保存',
    handler: async (input, ctx) => {
      const { id, nickname, roleIds, apps } = input;
      if (nickname === undefined && roleIds === undefined && apps === undefined) throw fail.badInput('请至少修改一项');
      // One's own nickname is changed in 个人中心; one's own roles never by oneself.
      const before = await operatorToChange(ctx, id, '修改');
      const roles = roleIds === undefined ? undefined : await rolesByIds(ctx.db, roleIds);
      // Only what the caller holds may be given; roles kept as they were need no check.
      const added = roles?.filter((r) => !before.roles.some((held) => held.id === r.id)) ?? [];
      await checkGrant(ctx, added, apps);
      if (roles && before.superAdmin && !roles.some((r) => r.builtin === 'super')) {
        await keepLastSuperAdmin(ctx.db, id, SUPER_ROLE_LOST);
      }
      if (nickname !== undefined) {
        await ctx.db.updateTable('users').set({ nickname, updated_at: Date.now() }).where('id', '=', id).execute();
      }
      await saveOperator(ctx.db, id, { roleIds, apps });
      // Whatever the parts, the operator must end up holding no more than the caller does.
      await refuseStrongerOperator(ctx, id, '这样修改');
      const after = await loadOperator(ctx.db, id);
      const view = (o: typeof after) => ({
        ...(nickname === undefined ? {} : { nickname: o.nickname }),
        ...(roleIds === undefined ? {} : { roles: o.roles.map((r) => r.name) }),
        ...(apps === undefined ? {} : scopeWords(o.apps)),
      });
      await ctx.audit({ targetId: id, before: view(before), after: view(after) });
      regrant(ctx);
      return { operator: after };
    },
  },

  '/api/operators/disable': {
    transaction: true,
    message: '已停用，该操作员已被强制下线',
    handler: (input, ctx) => setEnabled(ctx, input.id, false, input.reason),
  },

  '/api/operators/enable': {
    transaction: true,
    message: '已启用',
    handler: (input, ctx) => setEnabled(ctx, input.id, true, input.reason),
  },

  '/api/operators/reset/password': {
    message: '密码已重置，请把新的初始密码告知本人；其下次登录须先修改密码',
    handler: async (input, ctx) => {
      const { password, hash } = await initialPassword();
      return ctx.inTransaction(async (tx) => {
        const operator = await operatorToChange(tx, input.id, '重置密码');
        const { phone } = await loadUserRow(tx.db, input.id);
        await setInitialPassword(tx.db, input.id, hash);
        await tx.audit({ targetId: input.id, after: { mustChangePassword: true, reason: input.reason } });
        return { id: operator.id, phone: maskPhone(phone), password };
      });
    },
  },

  '/api/users/update/admin': {
    transaction: true,
    message: '管理员设置已更新',
    handler: async (input, ctx) => {
      const { id, isAdmin } = input;
      await lockAdminChanges(ctx.db, ctx.dialect);
      const before = await loadUserRow(ctx.db, id);
      const wasAdmin = before.is_admin === 1;
      const held = wasAdmin ? (await loadOperator(ctx.db, id)).roles.map((r) => r.name) : [];
      if (wasAdmin && !isAdmin) {
        if (id === ctx.user.id) throw fail.forbidden('不能取消自己的管理员身份');
        await operatorToChange(ctx, id, '取消其管理员身份');
        await keepLastSuperAdmin(ctx.db, id, '取消其管理员身份');
        await dropOperator(ctx.db, id);
        // Losing the flag ends the console sessions at once (docs/architecture.md#identity).
        await revokeUserSessions(ctx.db, id);
      }
      if (isAdmin) {
        // An operator with no role: may enter the console and sees nothing until given one.
        await saveOperator(ctx.db, id, {});
      }
      if (wasAdmin !== isAdmin) {
        await ctx.db
          .updateTable('users')
          .set({ is_admin: isAdmin ? 1 : 0, updated_at: Date.now() })
          .where('id', '=', id)
          .execute();
      }
      // Recorded even when nothing changed: the operator did ask for it.
      await ctx.audit({
        targetId: id,
        before: { isAdmin: wasAdmin, ...(wasAdmin && !isAdmin ? { roles: held } : {}) },
        after: { isAdmin, ...(wasAdmin && !isAdmin ? { roles: [] } : {}) },
      });
      regrant(ctx);
      return { user: presentAdminUser(await loadUserRow(ctx.db, id)) };
    },
  },
});
