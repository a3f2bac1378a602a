import { channels } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import { iso } from '../../db/paging';
import type { NoticeSource } from '../../http/context';

/** Pending review claims, as header-bell notices for the operators who review them. */
const pendingReviewNotices: NoticeSource = async (ctx) => {
  const rows = await ctx.db
    .selectFrom('review_rewards')
    .select(['id', 'store', 'created_at'])
    .where('status', '=', 'pending')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.map((r) => ({
    id: `review-${r.id}`,
    type: 'review' as const,
    title: '好评奖励待审核',
    description: `来自${labelOf(channels, r.store)}的评价截图`,
    datetime: iso(Number(r.created_at)),
    link: '/admin/admin/reviewreward?status=pending',
  }));
};
export default pendingReviewNotices;
