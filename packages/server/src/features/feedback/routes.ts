import { feedbackRow } from '@appdesk/contract/endpoints/feedback';
import { ownImages } from '../../core/attachments';
import { sendMessage } from '../../core/messages';
import { consumeAll, type Limit } from '../../core/throttle';
import { countedTotal, pageAnswer, pageOf, shanghaiTime } from '../../db/paging';
import { mustReach, scoped } from '../../http/app-scope';
import type { RequestContext, SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { channelWord, listExport, pagedRoute, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { filteredFeedback, insertFeedback, loadFeedback, mine, presentRows, withPeople } from './queries';

const HOUR = 60 * 60 * 1000;
/** Submissions per device and per client address in an hour (a shared network has many devices). */
export const PER_DEVICE = 5;
export const PER_ADDRESS = 60;

function submissionLimits(deviceId: string, ip: string): { limit: Limit }[] {
  return [
    {
      limit: {
        key: `feedback:device:${deviceId}`,
        max: PER_DEVICE,
        windowMs: HOUR,
        refusal: `反馈提交过于频繁（每台设备每小时最多 ${PER_DEVICE} 条）`,
      },
    },
    {
      limit: {
        key: `feedback:ip:${ip}`,
        max: PER_ADDRESS,
        windowMs: HOUR,
        refusal: `当前网络提交反馈过于频繁（每小时最多 ${PER_ADDRESS} 条）`,
      },
    },
  ];
}

async function present(ctx: RequestContext, id: number) {
  const [row] = await presentRows(ctx, [await loadFeedback(ctx.db, id)]);
  return row;
}

/** Marks a feedback handled by the calling operator, with a reply or without one. */
async function markHandled(ctx: SignedInContext, id: number, reply?: string) {
  const before = await loadFeedback(ctx.db, id);
  await mustReach(ctx, before.app);
  const now = Date.now();
  await ctx.db
    .updateTable('feedback')
    .set({
      status: 'handled',
      handled_by: ctx.user.id,
      handled_at: now,
      updated_at: now,
      ...(reply === undefined ? {} : { reply, replied_at: now }),
    })
    .where('id', '=', id)
    .execute();
  return before;
}

const excerpt = (text: string) => (Array.from(text).length > 60 ? `${Array.from(text).slice(0, 60).join('')}…` : text);

const statusWord = wordsOf(feedbackRow.shape.status);

const feedbackList = pagedRoute('/api/feedback/fetch/page', {
  rows: (input, ctx) => {
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    return withPeople(filteredFeedback(ctx.db, scoped(ctx, input)))
      .orderBy('f.created_at', direction)
      .orderBy('f.id', direction);
  },
  total: (input, ctx) => countedTotal(ctx.db, filteredFeedback(ctx.db, scoped(ctx, input)), input.exactTotal),
  present: (rows, ctx) => presentRows(ctx, rows),
});

export default defineRoutes({
  '/api/feedback/upload': {
    message: '上传成功',
    handler: async (_input, ctx) => {
      const file = ctx.file;
      if (!file?.id || !file.claimToken) throw fail.badInput('缺少上传文件（字段名 file）');
      return { id: file.id, url: file.url, token: file.claimToken };
    },
  },

  '/api/feedback/make': {
    transaction: true,
    message: '反馈已提交，感谢你的意见',
    handler: async (input, ctx) => {
      const session = await ctx.presentedSession();
      const user = session.state === 'ok' && session.user.status !== 'blocked' ? session.user : null;
      if (!user && !input.contact) {
        throw fail.badInput('未登录时请留下联系方式（手机号、QQ、微信或邮箱），方便我们回复你');
      }
      // Counted in the call's transaction: a submission refused below gives its units back.
      await consumeAll(ctx.db, submissionLimits(input.deviceId, ctx.ip));
      const images = await ownImages(ctx.db, input.images, { userId: user?.id ?? null, tokens: input.imageTokens });
      const id = await insertFeedback(ctx.db, input, user?.id ?? null, images);
      return { feedback: mine(await present(ctx, id)) };
    },
  },

  '/api/feedback/fetch/mine': {
    handler: async (input, ctx) => {
      const query = withPeople(filteredFeedback(ctx.db, { search: '' })).where('f.user_id', '=', ctx.user.id);
      const { rows, ...total } = await pageOf(
        query.orderBy('f.id', 'desc'),
        countedTotal(ctx.db, ctx.db.selectFrom('feedback as f').where('f.user_id', '=', ctx.user.id), true),
        input.page,
        input.size,
      );
      return pageAnswer((await presentRows(ctx, rows)).map(mine), total, input.page, input.size);
    },
  },

  '/api/feedback/fetch/page': feedbackList,
  '/api/feedback/export': listExport(feedbackList, (ctx) => ({
    filename: '意见反馈',
    columns: [
      { header: 'ID', width: 10, cell: (f) => f.id },
      { header: '提交时间', width: 18, cell: (f) => shanghaiTime(f.createdAt) },
      { header: '应用', width: 12, cell: (f) => ctx.apps.nameOf(f.app) },
      { header: '用户', width: 16, cell: (f) => f.user },
      { header: '内容', width: 50, cell: (f) => f.content },
      { header: '联系方式', width: 20, cell: (f) => f.contact },
      { header: '图片数', width: 8, cell: (f) => f.images.length },
      { header: '版本', width: 10, cell: (f) => f.version },
      { header: '渠道', width: 14, cell: (f) => channelWord(f.channel) },
      { header: '设备', width: 20, cell: (f) => [f.deviceModel, f.osVersion].filter(Boolean).join(' · ') },
      { header: '状态', width: 10, cell: (f) => statusWord(f.status) },
      { header: '回复', width: 40, cell: (f) => f.reply ?? '' },
      { header: '处理人', width: 16, cell: (f) => f.handler ?? '' },
      { header: '处理时间', width: 18, cell: (f) => shanghaiTime(f.handledAt) },
    ],
  })),

  '/api/feedback/reply': {
    transaction: true,
    message: '回复已发送',
    handler: async (input, ctx) => {
      const before = await markHandled(ctx, input.id, input.reply);
      // A signed-in author reads the answer in the app's message centre, sent in this transaction.
      const messageSent = before.user_id !== null;
      if (before.user_id !== null) {
        await sendMessage(ctx.db, {
          app: before.app,
          userId: before.user_id,
          title: '你的意见反馈有了回复',
          content: `你的反馈：${excerpt(before.content)}\n\n回复：${input.reply}`,
          authorId: null,
        });
      }
      const feedback = await present(ctx, input.id);
      await ctx.audit({
        targetId: input.id,
        before: { status: before.status, reply: before.reply },
        after: { status: feedback.status, reply: feedback.reply, messageSent },
      });
      return { feedback, messageSent };
    },
  },

  '/api/feedback/handle': {
    transaction: true,
    message: '已标记为已处理',
    handler: async (input, ctx) => {
      const before = await markHandled(ctx, input.id);
      const feedback = await present(ctx, input.id);
      await ctx.audit({ targetId: input.id, before: { status: before.status }, after: { status: feedback.status } });
      return { feedback };
    },
  },
});
