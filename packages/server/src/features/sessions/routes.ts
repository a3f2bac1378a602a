import type { liveSessionFilter } from '@appdesk/contract/endpoints/sessions';
import { maskPhone } from '@appdesk/contract/format';
import type { z } from 'zod';
import { describeDevice } from '../../core/device';
import type { Db } from '../../db/index';
import { countedTotal, iso, pageAnswer, pageOf, shanghaiTime } from '../../db/paging';
import { type AppScope, appScope, inScope, mustReach } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { listExport, pagedHandler, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';

type LiveSessionFilter = z.output<typeof liveSessionFilter>;

/**
 * Sessions that still work: expired ones are removed when next presented, so they may linger. An
 * operator limited to some apps sees the sessions signed in to those apps (`apps`).
 */
function liveSessions(db: Db, filter: LiveSessionFilter & { apps: AppScope }, now: number) {
  let q = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .where('sessions.expires_at', '>', now);
  if (filter.apps) q = q.where(inScope('sessions.app', filter.apps));
  if (filter.phone) q = q.where('users.phone', '=', filter.phone);
  if (filter.userId !== undefined) q = q.where('sessions.user_id', '=', filter.userId);
  return q;
}

const sessionList = pagedHandler('/api/sessions/fetch/page', {
  handler: async (input, ctx) => {
    const now = Date.now();
    const filtered = liveSessions(ctx.db, { ...input, apps: appScope(ctx) }, now);
    const list = filtered
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.app',
        'sessions.ip',
        'sessions.user_agent',
        'sessions.created_at',
        'sessions.last_used_at',
        'sessions.expires_at',
        'users.phone',
        'users.nickname',
        'users.is_admin',
      ])
      .orderBy('sessions.last_used_at', 'desc')
      .orderBy('sessions.id', 'desc');
    const { rows, ...total } = await pageOf(
      list,
      countedTotal(ctx.db, filtered, input.exactTotal),
      input.page,
      input.size,
    );
    const sessions = rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      phone: maskPhone(r.phone),
      name: r.nickname || maskPhone(r.phone),
      isAdmin: r.is_admin === 1,
      app: r.app,
      ip: r.ip,
      userAgent: r.user_agent,
      device: describeDevice(r.user_agent),
      createdAt: iso(r.created_at),
      lastUsedAt: iso(r.last_used_at),
      expiresAt: iso(r.expires_at),
    }));
    return pageAnswer(sessions, total, input.page, input.size);
  },
});

export default defineRoutes({
  '/api/sessions/fetch/mine': {
    handler: async (_input, ctx) => {
      const rows = await ctx.db
        .selectFrom('sessions')
        .select(['id', 'app', 'ip', 'user_agent', 'created_at', 'last_used_at'])
        .where('user_id', '=', ctx.user.id)
        .where('expires_at', '>', Date.now())
        .orderBy('last_used_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return {
        list: rows.map((r) => ({
          id: r.id,
          app: r.app,
          ip: r.ip,
          userAgent: r.user_agent,
          device: describeDevice(r.user_agent),
          createdAt: iso(r.created_at),
          lastUsedAt: iso(r.last_used_at),
          current: r.id === ctx.sessionId,
        })),
      };
    },
  },

  '/api/sessions/revoke/mine': {
    transaction: true,
    message: '该会话已下线',
    handler: async (input, ctx) => {
      if (input.id === ctx.sessionId) throw fail.badInput('这是当前会话，请使用“退出登录”');
      const removed = await ctx.db
        .deleteFrom('sessions')
        .where('id', '=', input.id)
        .where('user_id', '=', ctx.user.id)
        .executeTakeFirst();
      // Another account's session answers exactly like a missing one.
      if (Number(removed.numDeletedRows) === 0) throw fail.notFound('会话不存在或已下线');
      return null;
    },
  },

  '/api/sessions/fetch/page': sessionList,
  '/api/sessions/export': {
    // The app's name is data: read from the registry of the call.
    handler: (input, ctx) =>
      listExport(sessionList, {
        filename: '在线会话',
        columns: [
          { header: 'ID', width: 10, cell: (s) => s.id },
          { header: '用户 ID', width: 10, cell: (s) => s.userId },
          { header: '手机号', width: 14, cell: (s) => s.phone },
          { header: '昵称', width: 16, cell: (s) => s.name },
          { header: '管理员', width: 8, cell: (s) => yesNo(s.isAdmin) },
          { header: '应用', width: 12, cell: (s) => ctx.apps.nameOf(s.app) },
          { header: '设备', width: 24, cell: (s) => s.device ?? '' },
          { header: 'IP', width: 16, cell: (s) => s.ip ?? '' },
          { header: '登录时间', width: 18, cell: (s) => shanghaiTime(s.createdAt) },
          { header: '最近活跃', width: 18, cell: (s) => shanghaiTime(s.lastUsedAt) },
          { header: '到期时间', width: 18, cell: (s) => shanghaiTime(s.expiresAt) },
        ],
      }).handler(input, ctx),
  },

  '/api/sessions/revoke': {
    transaction: true,
    message: '已强制下线',
    handler: async (input, ctx) => {
      if (input.id === ctx.sessionId) throw fail.badInput('这是你自己的当前会话，请使用“退出登录”');
      const session = await ctx.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.user_id', 'sessions.app', 'sessions.ip', 'users.phone'])
        .where('sessions.id', '=', input.id)
        .executeTakeFirst();
      if (!session) throw fail.notFound('会话不存在或已下线');
      await mustReach(ctx, session.app);
      await ctx.db.deleteFrom('sessions').where('id', '=', input.id).execute();
      await ctx.audit({
        targetId: input.id,
        before: { userId: session.user_id, phone: maskPhone(session.phone), ip: session.ip },
      });
      return null;
    },
  },
});
