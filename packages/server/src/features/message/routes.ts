import { maskPhone } from '@appdesk/contract/format';
import type { Selectable } from 'kysely';
import { type ExpressionBuilder, sql } from 'kysely';
import { sendMessage } from '../../core/messages';
import type { SessionUser } from '../../core/sessions';
import type { Database, Db } from '../../db/index';
import { containsText, countedTotal, iso, keptTotal, pageAnswer, pageOf, shanghaiTime } from '../../db/paging';
import type { MessagesTable } from '../../db/schema';
import { appScope, inScope, mustReach } from '../../http/app-scope';
import type { RequestContext, SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedHandler, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';

/**
 * The messages a user can see in an app (or in each of several: the console's header bell): those
 * addressed to them, and broadcasts sent since they signed up (a new account does not inherit
 * years of old announcements); never blocked ones. The two kinds are two ranges of the
 * (app, user_id, blocked, id) index joined by UNION ALL: written as one condition with an OR
 * under the app, SQLite walked the app's every message instead (7–12 ms a call at 100,000
 * messages, against 0.3).
 */
function visibleTo(db: Db, user: Pick<SessionUser, 'id' | 'created_at'>, app: string | readonly string[]) {
  const apps = typeof app === 'string' ? [app] : app;
  // inScope: no app at all (an operator whose roles reach none) is no row, not `in ()` (PostgreSQL refuses it).
  const ofApps = db.selectFrom('messages').select('id').where(inScope('app', apps)).where('blocked', '=', 0);
  const visible = ofApps
    .where('user_id', '=', user.id)
    .unionAll(ofApps.where('user_id', 'is', null).where('created_at', '>=', user.created_at));
  return db.selectFrom('messages as m').where('m.id', 'in', visible);
}

export function unreadBy(db: Db, user: Pick<SessionUser, 'id' | 'created_at'>, app: string | readonly string[]) {
  // An operator's own broadcast is not news to them (a message they addressed to themselves is).
  const notMine = (eb: ExpressionBuilder<Database & { m: MessagesTable }, 'm'>) =>
    eb.or([eb('m.user_id', 'is not', null), eb('m.author_id', 'is', null), eb('m.author_id', '!=', user.id)]);
  return visibleTo(db, user, app)
    .where(notMine)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('message_reads as r')
            .select(sql`1`.as('one'))
            .whereRef('r.message_id', '=', 'm.id')
            .where('r.user_id', '=', user.id),
        ),
      ),
    );
}

/** How many users have read message `m` (operators see it per message). */
function readCount(eb: ExpressionBuilder<Database & { m: Database['messages'] }, 'm'>) {
  return eb
    .selectFrom('message_reads as r')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('r.message_id', '=', 'm.id')
    .as('read_count');
}

async function loadAdminMessage(ctx: RequestContext, id: number) {
  const row = await ctx.db
    .selectFrom('messages as m')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select(['u.phone as user_phone'])
    .select(readCount)
    .where('m.id', '=', id)
    .executeTakeFirst();
  if (!row) throw fail.notFound('消息不存在');
  return presentAdminMessage(row);
}

function presentAdminMessage(
  row: Selectable<MessagesTable> & { user_phone: string | null; read_count: number | null },
) {
  return {
    id: row.id,
    app: row.app,
    title: row.title,
    content: row.content,
    userId: row.user_id,
    userPhone: row.user_phone === null ? null : maskPhone(row.user_phone),
    blocked: row.blocked === 1,
    authorId: row.author_id,
    readCount: Number(row.read_count ?? 0),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

async function setBlocked(ctx: RequestContext, id: number, blocked: 0 | 1) {
  const before = await loadAdminMessage(ctx, id);
  await mustReach(ctx, before.app);
  await ctx.db.updateTable('messages').set({ blocked, updated_at: Date.now() }).where('id', '=', id).execute();
  await ctx.audit({
    targetId: id,
    before: { blocked: before.blocked },
    after: { blocked: blocked === 1 },
  });
  return { message: await loadAdminMessage(ctx, id) };
}

async function assertVisible(ctx: SignedInContext, id: number, app: string) {
  const user = ctx.user;
  const found = await visibleTo(ctx.db, user, app).select('m.id').where('m.id', '=', id).executeTakeFirst();
  if (!found) throw fail.notFound('消息不存在');
  return user;
}

export const inboxColumns = ['m.id', 'm.title', 'm.content', 'm.created_at'] as const;

const messageList = pagedHandler('/api/message/fetch/page', {
  handler: async (input, ctx) => {
    const apps = appScope(ctx, input.app);
    let base = ctx.db.selectFrom('messages as m');
    if (apps) base = base.where(inScope('m.app', apps));
    if (input.blocked !== undefined) base = base.where('m.blocked', '=', input.blocked ? 1 : 0);
    if (input.search) base = base.where(containsText(['m.title', 'm.content'], input.search));
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    let sorted = base.leftJoin('users as u', 'u.id', 'm.user_id');
    if (input.sort === 'updatedAt') sorted = sorted.orderBy('m.updated_at', direction);
    const filtered = input.blocked !== undefined || Boolean(input.search) || apps !== undefined;
    const { rows, ...total } = await pageOf(
      sorted.selectAll('m').select(['u.phone as user_phone']).select(readCount).orderBy('m.id', direction),
      filtered ? countedTotal(ctx.db, base, input.exactTotal) : keptTotal(ctx.db, 'messages'),
      input.page,
      input.size,
    );
    return pageAnswer(rows.map(presentAdminMessage), total, input.page, input.size);
  },
});

export default defineRoutes({
  '/api/message/make': {
    transaction: true,
    message: '消息已发送',
    handler: async (input, ctx) => {
      const author = ctx.user;
      if (input.userId !== null) {
        const recipient = await ctx.db
          .selectFrom('users')
          .select('id')
          .where('id', '=', input.userId)
          .executeTakeFirst();
        if (!recipient) throw fail.notFound('接收用户不存在');
      }
      const id = await sendMessage(ctx.db, {
        app: input.app,
        userId: input.userId,
        title: input.title,
        content: input.content,
        authorId: author.id,
      });
      await ctx.audit({
        targetId: id,
        after: { app: input.app, title: input.title, userId: input.userId },
      });
      return { message: await loadAdminMessage(ctx, id) };
    },
  },

  '/api/message/update': {
    transaction: true,
    message: '消息已修改',
    handler: async (input, ctx) => {
      // Only the fields sent are changed (spec 5).
      const changes: { title?: string; content?: string } = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.content !== undefined) changes.content = input.content;
      if (Object.keys(changes).length === 0) throw fail.badInput('请至少修改标题或内容中的一项');
      const before = await loadAdminMessage(ctx, input.id);
      await mustReach(ctx, before.app);
      await ctx.db
        .updateTable('messages')
        .set({ ...changes, updated_at: Date.now() })
        .where('id', '=', input.id)
        .execute();
      await ctx.audit({
        targetId: input.id,
        before: Object.fromEntries(Object.keys(changes).map((k) => [k, before[k as keyof typeof changes]])),
        after: changes,
      });
      return { message: await loadAdminMessage(ctx, input.id) };
    },
  },

  '/api/message/fetch/page': messageList,
  '/api/message/export': listExport(messageList, (ctx) => ({
    filename: '站内消息',
    columns: [
      { header: 'ID', width: 10, cell: (m) => m.id },
      { header: '应用', width: 12, cell: (m) => ctx.apps.nameOf(m.app) },
      { header: '标题', width: 30, cell: (m) => m.title },
      { header: '内容', width: 50, cell: (m) => m.content },
      { header: '接收人', width: 16, cell: (m) => (m.userId === null ? '全部用户' : (m.userPhone ?? `#${m.userId}`)) },
      { header: '已读人数', width: 10, cell: (m) => m.readCount },
      { header: '已屏蔽', width: 8, cell: (m) => yesNo(m.blocked) },
      { header: '发送时间', width: 18, cell: (m) => shanghaiTime(m.createdAt) },
      { header: '更新时间', width: 18, cell: (m) => shanghaiTime(m.updatedAt) },
    ],
  })),

  '/api/message/block': {
    transaction: true,
    message: '消息已屏蔽',
    handler: (input, ctx) => setBlocked(ctx, input.id, 1),
  },
  '/api/message/unblock': {
    transaction: true,
    message: '已取消屏蔽',
    handler: (input, ctx) => setBlocked(ctx, input.id, 0),
  },

  '/api/message/fetch/page/unread': {
    handler: async (input, ctx) => {
      const user = ctx.user;
      const base = unreadBy(ctx.db, user, input.app);
      // A user's own messages: few enough to count exactly.
      const { rows, total } = await pageOf(
        base.select(inboxColumns).orderBy('m.id', 'desc'),
        countedTotal(ctx.db, base, true),
        input.page,
        input.size,
      );
      return {
        list: rows.map((r) => ({
          id: r.id,
          title: r.title,
          content: r.content,
          read: false,
          createdAt: iso(r.created_at),
        })),
        total,
      };
    },
  },

  '/api/message/fetch/page/mine': {
    handler: async (input, ctx) => {
      const user = ctx.user;
      const base = visibleTo(ctx.db, user, input.app);
      let mine = base
        .leftJoin('message_reads as r', (join) => join.onRef('r.message_id', '=', 'm.id').on('r.user_id', '=', user.id))
        .select([...inboxColumns, 'r.read_at']);
      // The inbox page reads unread ones first; a user's own messages are few enough to sort.
      if (input.unreadFirst) mine = mine.orderBy(sql`case when r.read_at is null then 0 else 1 end`);
      const { rows, ...total } = await pageOf(
        mine.orderBy('m.id', 'desc'),
        countedTotal(ctx.db, base, true),
        input.page,
        input.size,
      );
      const list = rows.map((r) => ({
        id: r.id,
        title: r.title,
        content: r.content,
        read: r.read_at !== null,
        createdAt: iso(r.created_at),
      }));
      return pageAnswer(list, total, input.page, input.size);
    },
  },

  '/api/message/read': {
    message: '已标记为已读',
    handler: async (input, ctx) => {
      const user = await assertVisible(ctx, input.id, input.app);
      await ctx.db
        .insertInto('message_reads')
        .values({ message_id: input.id, user_id: user.id, read_at: Date.now() })
        .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
        .execute();
      return null;
    },
  },

  '/api/message/unread': {
    message: '已标记为未读',
    handler: async (input, ctx) => {
      const user = await assertVisible(ctx, input.id, input.app);
      await ctx.db
        .deleteFrom('message_reads')
        .where('message_id', '=', input.id)
        .where('user_id', '=', user.id)
        .execute();
      return null;
    },
  },

  '/api/message/read/all': {
    message: '已全部标记为已读',
    handler: async (input, ctx) => {
      const user = ctx.user;
      const now = Date.now();
      const result = await ctx.db
        .insertInto('message_reads')
        .columns(['message_id', 'user_id', 'read_at'])
        .expression(
          unreadBy(ctx.db, user, input.app).select((eb) => [
            'm.id',
            eb.val(user.id).as('user_id'),
            eb.val(now).as('read_at'),
          ]),
        )
        .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
        .executeTakeFirst();
      return { count: Number(result.numInsertedOrUpdatedRows ?? 0) };
    },
  },
});
