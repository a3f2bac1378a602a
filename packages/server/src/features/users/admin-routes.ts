import { randomInt } from 'node:crypto';
import { channels } from '@appdesk/contract/constants';
import { userStatuses } from '@appdesk/contract/endpoints/users';
import { maskPhone } from '@appdesk/contract/format';
import { labelOf, reservedPhonePrefix } from '@appdesk/contract/rules';
import { changeCoins } from '../../core/ledger';
import { newUserRow } from '../../core/new-user';
import { initialPassword } from '../../core/passwords';
import { revokeUserSessions } from '../../core/sessions';
import { countedTotal, iso, isoOrNull, pageAnswer, shanghaiTime } from '../../db/paging';
import { appScope, mustSee, reaches } from '../../http/app-scope';
import type { RequestContext, SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';
import { guardOperatorAccount } from '../operators/public';
import { vipEntitlementsOf } from '../vip/public';
import { blockEnd, liftDueBlocks } from './blocks';
import { exportOrder, filteredUsers, keptUserTotal, sortColumn, userPage, usersInScope, vipApps } from './list';
import { adminUserColumns, presentAdminUser, presentListedUser, withVip } from './presenter';
import { setAccountStatus, setInitialPassword } from './public';

/**
 * One account as operators see it; its VIP expiry is the latest of any app's (the detail lists
 * each), of the operator's apps when they are limited to some. An account is of the app it signed
 * up in: outside the operator's apps it is not there for them (an account of no app, one made in
 * the console, is everyone's). Reads and changes alike answer 「用户不存在」, as the list never
 * showed it.
 */
async function loadUser(ctx: RequestContext, id: number) {
  const row = await ctx.db.selectFrom('users').select(adminUserColumns).where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('用户不存在');
  mustSee(ctx, row.app, '用户不存在');
  const [user] = await withVip(ctx.db, [row], appScope(ctx));
  return user;
}

async function setStatus(
  ctx: SignedInContext,
  id: number,
  change: { status: 'normal' | 'blocked'; reason: string; until?: string | null },
) {
  const actor = ctx.user;
  const { status, reason } = change;
  if (id === actor.id && status === 'blocked') throw fail.forbidden('不能封禁自己');
  const blockedUntil = status === 'blocked' ? blockEnd(change.until ?? null) : null;
  // An operator's account: only who may manage that operator, and never the last 超级管理员.
  await guardOperatorAccount(ctx, id, status === 'blocked' ? '封禁' : '解封', status === 'blocked');
  await liftDueBlocks(ctx.db, id);
  const before = await loadUser(ctx, id);
  await setAccountStatus(ctx.db, id, status, blockedUntil);
  await ctx.audit({
    targetId: id,
    before: { status: before.status, blockedUntil: isoOrNull(before.blocked_until) },
    after: { status, blockedUntil: isoOrNull(blockedUntil), reason },
  });
  return { user: presentAdminUser(await loadUser(ctx, id)) };
}

/** A number in the reserved range (never a real person's): 100, the operator's digits, random ones. */
function randomPhone(prefix: string): string {
  let phone = reservedPhonePrefix + prefix;
  while (phone.length < 11) phone += String(randomInt(10));
  return phone;
}

export default defineRoutes({
  '/api/users/fetch/page': {
    handler: async (input, ctx) => {
      await liftDueBlocks(ctx.db);
      const filter = usersInScope(input, appScope(ctx, input.app));
      const { rows, ...total } = await userPage(ctx.db, ctx.dialect, filter, adminUserColumns, { vip: true });
      return pageAnswer(rows.map(presentListedUser), total, input.page, input.size);
    },
  },

  '/api/users/fetch/page/box': {
    handler: async (_input, ctx) => {
      await liftDueBlocks(ctx.db);
      const apps = appScope(ctx);
      const [all, blocked, admin] = await Promise.all(
        (['all', 'blocked', 'admin'] as const).map((status) =>
          // The kept counts are every app's: an operator limited to some apps gets theirs counted.
          apps
            ? countedTotal(ctx.db, filteredUsers(ctx.db, ctx.dialect, usersInScope({ status, search: '' }, apps)), true)
            : keptUserTotal(ctx.db, status),
        ),
      );
      return { all: all.total, normal: all.total - blocked.total, blocked: blocked.total, admin: admin.total };
    },
  },

  '/api/users/export': {
    handler: async (unscoped, ctx) => {
      await liftDueBlocks(ctx.db);
      const input = usersInScope(unscoped, appScope(ctx, unscoped.app));
      return exportTable({
        filename: '用户列表',
        columns: [
          { header: 'ID', width: 10, cell: (u) => u.id },
          { header: '手机号', width: 16, cell: (u) => u.phone },
          { header: '昵称', cell: (u) => u.nickname },
          { header: '邮箱', width: 24, cell: (u) => u.email ?? '' },
          { header: '状态', width: 10, cell: (u) => labelOf(userStatuses, u.status) },
          { header: '封禁截止', width: 20, cell: (u) => shanghaiTime(u.blockedUntil) },
          { header: '管理员', width: 8, cell: (u) => (u.isAdmin ? '是' : '否') },
          { header: '金币', width: 10, cell: (u) => u.coins },
          { header: '会员到期', width: 20, cell: (u) => shanghaiTime(u.vipExpiresAt) },
          { header: '应用', width: 10, cell: (u) => ctx.apps.nameOf(u.app) },
          { header: '渠道', cell: (u) => labelOf(channels, u.channel) },
          { header: '注册时间', width: 20, cell: (u) => shanghaiTime(u.createdAt) },
          { header: '最近活跃', width: 20, cell: (u) => shanghaiTime(u.lastActiveAt) },
        ],
        rows: exportRows(
          exportOrder(input.sort, input.order),
          async (batch) =>
            withVip(
              ctx.db,
              await batch(filteredUsers(ctx.db, ctx.dialect, input).select(adminUserColumns)).execute(),
              vipApps(input),
            ),
          (row) => [row[sortColumn[input.sort]], row.id],
          presentAdminUser,
        ),
      });
    },
  },

  '/api/users/fetch/detail': {
    handler: async (input, ctx) => {
      await liftDueBlocks(ctx.db, input.id);
      const [user, vips] = await Promise.all([loadUser(ctx, input.id), vipEntitlementsOf(ctx.db, input.id)]);
      // VIP is per app: the operator's apps' only.
      const shown = vips.filter((v) => reaches(ctx, v.app));
      return { user: presentAdminUser(user), vips: shown.map((v) => ({ app: v.app, expiresAt: iso(v.expiresAt) })) };
    },
  },

  '/api/users/fetch/phone': {
    transaction: true,
    handler: async (input, ctx) => {
      const { phone } = await loadUser(ctx, input.id);
      await ctx.audit({ targetId: input.id, after: { phone: maskPhone(phone) } });
      return { phone };
    },
  },

  '/api/users/fetch/other/info': {
    handler: async (input, ctx) => {
      await loadUser(ctx, input.id);
      const [records, sessions] = await Promise.all([
        ctx.db
          .selectFrom('coin_records')
          .select(['id', 'delta', 'balance_after', 'reason', 'note', 'created_at'])
          .where('user_id', '=', input.id)
          .orderBy('id', 'desc')
          .limit(10)
          .execute(),
        ctx.db
          .selectFrom('sessions')
          .select(['id', 'ip', 'user_agent', 'created_at', 'last_used_at'])
          .where('user_id', '=', input.id)
          .where('expires_at', '>', Date.now())
          .orderBy('last_used_at', 'desc')
          .limit(20)
          .execute(),
      ]);
      return {
        coinRecords: records.map((r) => ({
          id: r.id,
          delta: r.delta,
          balanceAfter: r.balance_after,
          reason: r.reason,
          note: r.note,
          createdAt: iso(r.created_at),
        })),
        sessions: sessions.map((s) => ({
          id: s.id,
          ip: s.ip,
          userAgent: s.user_agent,
          createdAt: iso(s.created_at),
          lastUsedAt: iso(s.last_used_at),
        })),
      };
    },
  },

  '/api/users/block': {
    transaction: true,
    message: '已封禁，该用户已被强制下线',
    handler: (input, ctx) =>
      setStatus(ctx, input.id, { status: 'blocked', reason: input.reason ?? '', until: input.until }),
  },

  '/api/users/unblock': {
    transaction: true,
    message: '已解除封禁',
    handler: (input, ctx) => setStatus(ctx, input.id, { status: 'normal', reason: input.reason ?? '' }),
  },

  '/api/users/logout/all': {
    transaction: true,
    message: '已强制下线，该用户需重新登录',
    handler: async (input, ctx) => {
      if (input.id === ctx.user.id) throw fail.forbidden('不能强制自己下线，请使用退出登录');
      await loadUser(ctx, input.id);
      const live = await ctx.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', input.id)
        .executeTakeFirstOrThrow();
      await revokeUserSessions(ctx.db, input.id);
      const revoked = Number(live.n);
      await ctx.audit({ targetId: input.id, after: { revoked, reason: input.reason } });
      return { revoked };
    },
  },

  '/api/users/update/coins': {
    transaction: true,
    message: '金币已调整',
    handler: async (input, ctx) => {
      const actor = ctx.user;
      const before = await loadUser(ctx, input.id);
      const result = await changeCoins(ctx.db, {
        userId: input.id,
        delta: input.delta,
        reason: 'admin',
        operatorId: actor.id,
        note: input.reason,
      });
      await ctx.audit({
        targetId: input.id,
        before: { coins: before.coins },
        after: { coins: result.balance, delta: input.delta, reason: input.reason },
      });
      return { coins: result.balance, recordId: result.recordId };
    },
  },

  '/api/users/reset/password': {
    message: '密码已重置，请把新的初始密码告知用户；该用户下次登录须先修改密码',
    handler: async (input, ctx) => {
      if (input.id === ctx.user.id) throw fail.forbidden('不能重置自己的密码，请使用“修改密码”');
      const user = await loadUser(ctx, input.id);
      // Hashed before the transaction, so the write lock is not held for argon2's time.
      const { password, hash } = await initialPassword();
      await ctx.inTransaction(async (tx) => {
        await guardOperatorAccount(tx, input.id, '重置密码', false);
        await setInitialPassword(tx.db, input.id, hash);
        await tx.audit({ targetId: input.id, after: { mustChangePassword: true, reason: input.reason } });
      });
      return { id: user.id, phone: maskPhone(user.phone), password };
    },
  },

  '/api/users/generate': {
    message: '账号已生成，请立即下载保存初始密码',
    handler: async (input, ctx) => {
      const actor = ctx.user;
      // Hash outside the transaction: argon2 for 1,000 accounts takes seconds.
      const plans = await Promise.all(Array.from({ length: input.count }, initialPassword));
      return ctx.inTransaction(async (tx) => {
        const now = Date.now();
        const accounts: { id: number; phone: string; password: string }[] = [];
        const maxTries = input.count * 20 + 100;
        let tries = 0;
        for (const plan of plans) {
          for (;;) {
            tries += 1;
            if (tries > maxTries) throw fail.conflict('该号段内可用的手机号不足，请换一个号段或减少数量');
            const phone = randomPhone(input.phonePrefix);
            const row = await tx.db
              .insertInto('users')
              .values(
                newUserRow(
                  // The printed password is known to whoever holds the list: the owner must change it first.
                  { phone, password_hash: plan.hash, app: input.app, channel: input.channel, must_change_password: 1 },
                  now,
                ),
              )
              .onConflict((oc) => oc.column('phone').doNothing())
              .returning('id')
              .executeTakeFirst();
            if (row) {
              accounts.push({ id: row.id, phone, password: plan.password });
              break;
            }
          }
        }
        await tx.audit({
          after: {
            count: accounts.length,
            phonePrefix: input.phonePrefix,
            app: input.app,
            channel: input.channel,
            accounts: accounts.map((a) => ({ id: a.id, phone: a.phone })),
            operator: actor.id,
          },
        });
        return { accounts };
      });
    },
  },
});
