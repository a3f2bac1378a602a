import { channels } from '@appdesk/contract/constants';
import { reviewClaim } from '@appdesk/contract/endpoints/reviewreward';
import { labelOf } from '@appdesk/contract/rules';
import { changeCoins } from '../../core/ledger';
import { sendMessage } from '../../core/messages';
import { lockMoney } from '../../core/money-lock';
import { countedTotal, keptTotal, pageAnswer, pageOf, shanghaiTime } from '../../db/paging';
import { appScope, mustReach } from '../../http/app-scope';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { channelWord, listExport, pagedHandler, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { claimConditions, claimsWithPeople, loadClaim, presentClaim, presentMine, rewardCoins } from './queries';

const statusLabel: Record<string, string> = { pending: '待审核', approved: '已通过', rejected: '已驳回' };
/** 「滚动截屏在华为应用市场」: the app by its name (data), the store by its word. */
async function where(ctx: Pick<RequestContext, 'apps'>, app: string, store: string) {
  await ctx.apps.all();
  return `${ctx.apps.nameOf(app)}在${labelOf(channels, store)}`;
}

/** 好评奖励: app users claim, operators approve (coins through the ledger) or reject with a reason. */
const statusWord = wordsOf(reviewClaim.shape.status);

const claimList = pagedHandler('/api/reviewreward/fetch/page', {
  handler: async (input, ctx) => {
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    const { page, size, exactTotal, sort: _sort, order: _order, app, ...rest } = input;
    const filter = { ...rest, apps: appScope(ctx, app) };
    const onlyPending = filter.status === 'pending' && Object.values(filter).filter(Boolean).length === 1;
    const filtered = ctx.db.selectFrom('review_rewards').where(claimConditions(filter));
    const { rows, ...total } = await pageOf(
      claimsWithPeople(ctx.db)
        .where(claimConditions(filter))
        .orderBy('review_rewards.created_at', direction)
        .orderBy('review_rewards.id', direction),
      onlyPending ? keptTotal(ctx.db, 'review_rewards.pending') : countedTotal(ctx.db, filtered, exactTotal),
      page,
      size,
    );
    return pageAnswer(rows.map(presentClaim), total, page, size);
  },
});

export default defineRoutes({
  '/api/reviewreward/make': {
    transaction: true,
    message: '已提交，审核通过后金币会发放到你的账户',
    handler: async (input, ctx) => {
      const file = ctx.file;
      if (!file) throw fail.badInput('请上传评价截图（字段名 screenshot）');
      const open = await ctx.db
        .selectFrom('review_rewards')
        .select('status')
        .where('user_id', '=', ctx.user.id)
        .where('app', '=', input.app)
        .where('store', '=', input.store)
        .where('status', 'in', ['pending', 'approved'])
        .executeTakeFirst();
      if (open?.status === 'approved')
        throw fail.conflict(`你已领取过${await where(ctx, input.app, input.store)}的好评奖励`);
      if (open) throw fail.conflict('你的申请正在审核中，请耐心等待');
      const now = Date.now();
      const row = await ctx.db
        .insertInto('review_rewards')
        .values({
          user_id: ctx.user.id,
          app: input.app,
          store: input.store,
          screenshot: file.url,
          status: 'pending',
          coins: 0,
          reason: null,
          reviewer_id: null,
          created_at: now,
          updated_at: now,
          reviewed_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { claim: presentMine(row) };
    },
  },

  '/api/reviewreward/fetch/mine': {
    handler: async (input, ctx) => {
      const mine = ctx.db.selectFrom('review_rewards').where('user_id', '=', ctx.user.id);
      const { rows, ...total } = await pageOf(
        mine.selectAll().orderBy('id', 'desc'),
        countedTotal(ctx.db, mine),
        input.page,
        input.size,
      );
      return pageAnswer(rows.map(presentMine), total, input.page, input.size);
    },
  },

  '/api/reviewreward/fetch/page': claimList,
  '/api/reviewreward/export': listExport(claimList, (ctx) => ({
    filename: '好评奖励申请',
    columns: [
      { header: 'ID', width: 10, cell: (c) => c.id },
      { header: '提交时间', width: 18, cell: (c) => shanghaiTime(c.createdAt) },
      { header: '用户', width: 16, cell: (c) => c.userPhone },
      { header: '应用', width: 12, cell: (c) => ctx.apps.nameOf(c.app) },
      { header: '商店', width: 14, cell: (c) => channelWord(c.store) },
      { header: '状态', width: 10, cell: (c) => statusWord(c.status) },
      { header: '奖励金币', width: 10, cell: (c) => c.coins },
      { header: '原因', width: 30, cell: (c) => c.reason ?? '' },
      { header: '审核人', width: 16, cell: (c) => c.reviewerName ?? '' },
      { header: '审核时间', width: 18, cell: (c) => shanghaiTime(c.reviewedAt) },
    ],
  })),

  '/api/reviewreward/reject': {
    transaction: true,
    message: '已驳回，用户会收到站内消息',
    handler: async (input, ctx) => {
      const before = await loadClaim(ctx.db, input.id);
      await mustReach(ctx, before.app);
      const now = Date.now();
      const done = await ctx.db
        .updateTable('review_rewards')
        .set({ status: 'rejected', reason: input.reason, reviewer_id: ctx.user.id, reviewed_at: now, updated_at: now })
        .where('id', '=', input.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) {
        throw fail.conflict(`该申请${statusLabel[before.status] ?? before.status}，不能驳回`);
      }
      await sendMessage(ctx.db, {
        app: before.app,
        userId: before.user_id,
        title: '好评奖励申请未通过',
        content: `你提交的${await where(ctx, before.app, before.store)}的好评截图未通过审核。原因：${input.reason}。你可以重新提交。`,
        authorId: null,
      });
      await ctx.audit({
        targetId: input.id,
        before: { status: before.status },
        after: { status: 'rejected', reason: input.reason },
      });
      return { claim: presentClaim(await loadClaim(ctx.db, input.id)) };
    },
  },

  '/api/reviewreward/approve': {
    transaction: true,
    message: '已通过，金币已发放',
    handler: async (input, ctx) => {
      const before = await loadClaim(ctx.db, input.id);
      await mustReach(ctx, before.app);
      await lockMoney(ctx.db, before.user_id);
      const coins = await rewardCoins(ctx.db, before.app);
      const now = Date.now();
      const other = await ctx.db
        .selectFrom('review_rewards')
        .select('id')
        .where('user_id', '=', before.user_id)
        .where('app', '=', before.app)
        .where('store', '=', before.store)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      if (other)
        throw fail.conflict(
          `该用户已领取过${await where(ctx, before.app, before.store)}的好评奖励（每个商店只能领取一次）`,
        );
      const done = await ctx.db
        .updateTable('review_rewards')
        .set({ status: 'approved', coins, reason: null, reviewer_id: ctx.user.id, reviewed_at: now, updated_at: now })
        .where('id', '=', input.id)
        .where('status', 'in', ['pending', 'rejected'])
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) {
        throw fail.conflict(`该申请${statusLabel[before.status] ?? before.status}，不能再次通过`);
      }
      await changeCoins(ctx.db, {
        userId: before.user_id,
        delta: coins,
        reason: 'review_reward',
        refType: 'review_reward',
        refId: input.id,
        operatorId: ctx.user.id,
        note: `${await where(ctx, before.app, before.store)}的好评奖励`,
      });
      await sendMessage(ctx.db, {
        app: before.app,
        userId: before.user_id,
        title: '好评奖励已发放',
        content: `感谢你在${await where(ctx, before.app, before.store)}的好评！${coins} 金币已发放到你的账户。`,
        authorId: null,
      });
      await ctx.audit({ targetId: input.id, before: { status: before.status }, after: { status: 'approved', coins } });
      return { claim: presentClaim(await loadClaim(ctx.db, input.id)) };
    },
  },

  '/api/reviewreward/fetch/settings': {
    handler: async (input, ctx) => ({ coins: await rewardCoins(ctx.db, input.app) }),
  },

  '/api/reviewreward/update/settings': {
    transaction: true,
    message: '好评奖励金币已保存，只影响之后通过的申请',
    handler: async (input, ctx) => {
      const before = await rewardCoins(ctx.db, input.app);
      await ctx.db
        .insertInto('review_reward_settings')
        .values({ app: input.app, coins: input.coins, updated_at: Date.now() })
        .onConflict((oc) => oc.column('app').doUpdateSet({ coins: input.coins, updated_at: Date.now() }))
        .execute();
      await ctx.audit({ targetId: input.app, before: { coins: before }, after: { coins: input.coins } });
      return { coins: input.coins };
    },
  },
});
