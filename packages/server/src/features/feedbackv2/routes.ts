import { threadRow } from '@appdesk/contract/endpoints/feedbackv2';
import { ownImages } from '../../core/attachments';
import { consume } from '../../core/throttle';
import type { Db } from '../../db/index';
import { countedTotal, pageAnswer, pageOf, shanghaiTime } from '../../db/paging';
import { mustReach, mustSee, scoped } from '../../http/app-scope';
import type { RequestContext, SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, wordsOf, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import {
  filteredThreads,
  insertPost,
  loadOwnThread,
  loadThread,
  postsOf,
  presentMine,
  presentThread,
  sortColumn,
  subjectOf,
  unreadCounts,
  unreadForUser,
  withPeople,
} from './threads';

/** Threads opened and posts written by one user in an hour. */
export const POSTS_PER_HOUR = 30;

const limitPosts = (ctx: SignedInContext) =>
  consume(ctx.db, {
    key: `feedback:thread:user:${ctx.user.id}`,
    max: POSTS_PER_HOUR,
    windowMs: 60 * 60 * 1000,
    refusal: `留言过于频繁（每小时最多 ${POSTS_PER_HOUR} 条）`,
  });

async function mineAnswer(db: Db, id: number, userId: number) {
  const row = await loadOwnThread(db, id, userId);
  const unread = (await unreadCounts(db, userId, [id])).get(id) ?? 0;
  return { thread: presentMine(row, unread) };
}

async function adminAnswer(ctx: RequestContext, id: number) {
  const row = await loadThread(ctx.db, id);
  mustSee(ctx, row.app, '会话不存在');
  return { thread: presentThread(row), posts: await postsOf(ctx.db, ctx.storage, id, false) };
}

/** What the operation log keeps of a thread's change. */
const stateOf = (row: Awaited<ReturnType<typeof loadThread>>) => ({
  status: row.status,
  assigneeId: row.assignee_id,
  adminReadPostId: row.admin_read_post_id,
});

/** Applies an operator's change to a thread, logs it, and answers the thread with its posts. */
async function operatorChange(
  ctx: SignedInContext,
  id: number,
  change: (row: Awaited<ReturnType<typeof loadThread>>) => Promise<Record<string, unknown>>,
  note: Record<string, unknown> = {},
) {
  const before = await loadThread(ctx.db, id);
  await mustReach(ctx, before.app);
  const set = await change(before);
  await ctx.db
    .updateTable('feedback_threads')
    .set({ ...set, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
  const answer = await adminAnswer(ctx, id);
  await ctx.audit({
    targetId: id,
    before: stateOf(before),
    after: { ...stateOf(await loadThread(ctx.db, id)), ...note },
  });
  return answer;
}

/** The newest post of a thread: reading or closing marks everything up to it read. */
async function lastPostId(db: Db, threadId: number): Promise<number> {
  const row = await db
    .selectFrom('feedback_posts')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

const statusWord = wordsOf(threadRow.shape.status);
const categoryWord = wordsOf(threadRow.shape.category);

const threadList = pagedRoute('/api/feedbackv2/fetch/page', {
  rows: (input, ctx) => {
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    return withPeople(filteredThreads(ctx.db, scoped(ctx, input), ctx.user.id))
      .orderBy(sortColumn[input.sort], direction)
      .orderBy('t.id', direction);
  },
  total: (input, ctx) =>
    countedTotal(ctx.db, filteredThreads(ctx.db, scoped(ctx, input), ctx.user.id), input.exactTotal),
  present: (rows) => rows.map(presentThread),
});

export default defineRoutes({
  '/api/feedbackv2/make': {
    transaction: true,
    message: '反馈已提交，客服会尽快回复',
    handler: async (input, ctx) => {
      await limitPosts(ctx);
      const images = await ownImages(ctx.db, input.images, { userId: ctx.user.id, tokens: input.imageTokens });
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('feedback_threads')
        .values({
          app: input.app,
          user_id: ctx.user.id,
          category: input.category,
          status: 'open',
          subject: subjectOf(input.content),
          assignee_id: null,
          app_version: input.version,
          device_model: input.deviceModel,
          os_version: input.osVersion,
          last_post_at: now,
          last_user_post_id: 0,
          user_read_post_id: 0,
          admin_read_post_id: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const postId = await insertPost(
        ctx.db,
        { threadId: id, side: 'user', authorId: ctx.user.id, content: input.content },
        images,
        now,
      );
      await ctx.db
        .updateTable('feedback_threads')
        .set({ last_user_post_id: postId, user_read_post_id: postId })
        .where('id', '=', id)
        .execute();
      return mineAnswer(ctx.db, id, ctx.user.id);
    },
  },

  '/api/feedbackv2/post': {
    transaction: true,
    message: '留言已发送',
    handler: async (input, ctx) => {
      await loadOwnThread(ctx.db, input.id, ctx.user.id);
      await limitPosts(ctx);
      const images = await ownImages(ctx.db, input.images, { userId: ctx.user.id, tokens: input.imageTokens });
      const now = Date.now();
      const postId = await insertPost(
        ctx.db,
        { threadId: input.id, side: 'user', authorId: ctx.user.id, content: input.content },
        images,
        now,
      );
      // Writing means the user has seen everything before it; a closed thread opens again.
      await ctx.db
        .updateTable('feedback_threads')
        .set({
          status: 'open',
          last_post_at: now,
          last_user_post_id: postId,
          user_read_post_id: postId,
          updated_at: now,
        })
        .where('id', '=', input.id)
        .execute();
      return mineAnswer(ctx.db, input.id, ctx.user.id);
    },
  },

  '/api/feedbackv2/fetch/mine': {
    handler: async (input, ctx) => {
      const own = ctx.db.selectFrom('feedback_threads as t').where('t.user_id', '=', ctx.user.id);
      const { rows, ...total } = await pageOf(
        withPeople(filteredThreads(ctx.db, { search: '' }, ctx.user.id))
          .where('t.user_id', '=', ctx.user.id)
          .orderBy('t.last_post_at', 'desc')
          .orderBy('t.id', 'desc'),
        countedTotal(ctx.db, own, true),
        input.page,
        input.size,
      );
      const counts = await unreadCounts(
        ctx.db,
        ctx.user.id,
        rows.map((r) => r.id),
      );
      const all = await unreadForUser(ctx.db, ctx.user.id)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return {
        ...pageAnswer(
          rows.map((r) => presentMine(r, counts.get(r.id) ?? 0)),
          total,
          input.page,
          input.size,
        ),
        unreadTotal: Number(all?.n ?? 0),
      };
    },
  },

  '/api/feedbackv2/fetch/thread': {
    transaction: true,
    handler: async (input, ctx) => {
      await loadOwnThread(ctx.db, input.id, ctx.user.id);
      const posts = await postsOf(ctx.db, ctx.storage, input.id, true);
      const { thread } = await mineAnswer(ctx.db, input.id, ctx.user.id);
      // Opening the thread reads every reply in it.
      await ctx.db
        .updateTable('feedback_threads')
        .set({ user_read_post_id: await lastPostId(ctx.db, input.id) })
        .where('id', '=', input.id)
        .execute();
      return { thread: { ...thread, unread: 0 }, posts };
    },
  },

  '/api/feedbackv2/fetch/page': threadList,
  '/api/feedbackv2/export': listExport(threadList, (ctx) => ({
    filename: '反馈工单',
    columns: [
      { header: 'ID', width: 10, cell: (t) => t.id },
      { header: '主题', width: 36, cell: (t) => t.subject },
      { header: '分类', width: 12, cell: (t) => categoryWord(t.category) },
      { header: '状态', width: 10, cell: (t) => statusWord(t.status) },
      { header: '应用', width: 12, cell: (t) => ctx.apps.nameOf(t.app) },
      { header: '用户', width: 16, cell: (t) => t.user },
      { header: '负责人', width: 16, cell: (t) => t.assignee ?? '' },
      { header: '未读', width: 8, cell: (t) => yesNo(t.unread) },
      { header: '版本', width: 10, cell: (t) => t.version },
      { header: '设备', width: 20, cell: (t) => [t.deviceModel, t.osVersion].filter(Boolean).join(' · ') },
      { header: '最后留言', width: 18, cell: (t) => shanghaiTime(t.lastPostAt) },
      { header: '创建时间', width: 18, cell: (t) => shanghaiTime(t.createdAt) },
    ],
  })),

  '/api/feedbackv2/fetch/detail': {
    handler: (input, ctx) => adminAnswer(ctx, input.id),
  },

  '/api/feedbackv2/fetch/operators': {
    handler: async (_input, ctx) => {
      const rows = await ctx.db
        .selectFrom('users')
        .select(['id', 'nickname', 'phone'])
        .where('is_admin', '=', 1)
        .where('status', '=', 'normal')
        .orderBy('id')
        .limit(500)
        .execute();
      return { list: rows.map((r) => ({ id: r.id, name: r.nickname || `管理员 ${r.phone.slice(-4)}` })) };
    },
  },

  '/api/feedbackv2/read': {
    transaction: true,
    message: '已读',
    handler: (input, ctx) =>
      operatorChange(ctx, input.id, async () => ({ admin_read_post_id: await lastPostId(ctx.db, input.id) })),
  },

  '/api/feedbackv2/reply': {
    transaction: true,
    message: '回复已发送',
    handler: async (input, ctx) => {
      const images = await ownImages(ctx.db, input.images, { userId: ctx.user.id, tokens: [] });
      return operatorChange(
        ctx,
        input.id,
        async () => {
          const now = Date.now();
          const postId = await insertPost(
            ctx.db,
            {
              threadId: input.id,
              side: 'admin',
              authorId: ctx.user.id,
              content: input.content,
              cannedId: input.cannedId,
            },
            images,
            now,
          );
          return { status: 'replied', last_post_at: now, admin_read_post_id: postId };
        },
        { reply: input.content, cannedId: input.cannedId ?? null },
      );
    },
  },

  '/api/feedbackv2/assign': {
    transaction: true,
    message: '已分配',
    handler: async (input, ctx) => {
      if (input.assigneeId !== null) {
        const operator = await ctx.db
          .selectFrom('users')
          .select('id')
          .where('id', '=', input.assigneeId)
          .where('is_admin', '=', 1)
          .where('status', '=', 'normal')
          .executeTakeFirst();
        if (!operator) throw fail.badInput('只能分配给正常状态的管理员');
      }
      return operatorChange(ctx, input.id, async () => ({ assignee_id: input.assigneeId }));
    },
  },

  '/api/feedbackv2/close': {
    transaction: true,
    message: '会话已关闭',
    handler: (input, ctx) =>
      operatorChange(ctx, input.id, async () => ({
        status: 'closed',
        admin_read_post_id: await lastPostId(ctx.db, input.id),
      })),
  },
});
