import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { reviewStatuses } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  channelCode,
  exactTotal,
  id,
  integerField,
  isoTime,
  listExport,
  order,
  page,
  paged,
  phone,
  reasonNote,
  size,
  sortBy,
  timeRange,
  worded,
} from '../fields';
import { rules, valuesOf } from '../rules';

/**
 * Review rewards (好评奖励): an app user claims coins for a store review with a screenshot; an
 * operator approves (coins through the ledger, the amount a site setting) or rejects with a
 * reason; the user gets an in-app message either way. One approved claim per user, app and store.
 */
const target = auditTarget('review_reward', '好评奖励', 'reviewreward', { coins: '奖励金币' });
export const reviewStatus = worded(z.enum(valuesOf(reviewStatuses), { error: '未知的审核状态' }), reviewStatuses).meta({
  title: '审核状态',
});
const claimId = z.object({ id: id.meta({ title: '申请 ID' }) });

export const myReviewClaim = z.object({
  id,
  app: z.string(),
  store: z.string(),
  screenshot: z.string(),
  status: reviewStatus,
  /** Coins granted (approved), else 0. */
  coins: z.number().int(),
  reason: z.string().nullable(),
  createdAt: isoTime,
  reviewedAt: isoTime.nullable(),
});

export const reviewClaim = myReviewClaim.extend({
  userId: id,
  userPhone: z.string().meta({ description: '脱敏手机号' }),
  reviewerName: z.string().nullable(),
});

export const reviewFilter = timeRange.extend({
  status: reviewStatus.optional(),
  store: channelCode.optional(),
  app: appCode.optional(),
  phone: phone.optional().meta({ title: '用户手机号' }),
});

const reviewrewardPage = endpoint({
  access: 'admin',
  permission: 'reviewreward.read',
  summary: '分页查询好评奖励申请（状态、商店、应用、用户手机号、时间）',
  input: reviewFilter.extend({ page, size, exactTotal, sort: sortBy(['createdAt']), order }),
  output: paged(reviewClaim),
});

const singleEndpoints = {
  '/api/reviewreward/make': endpoint({
    access: 'user',
    summary:
      'App：申请好评奖励，上传评价截图（字段 screenshot，PNG、JPEG、GIF、WebP）并说明应用和商店渠道；同一应用同一商店只能通过一次',
    input: z.object({ app: appCode.default('tailor'), store: channelCode.default('other') }),
    output: z.object({ claim: myReviewClaim }),
    upload: { field: 'screenshot', kind: 'image' },
  }),
  '/api/reviewreward/fetch/mine': endpoint({
    access: 'user',
    summary: 'App：自己的好评奖励申请（新的在前）',
    input: z.object({ page, size }),
    output: paged(myReviewClaim),
  }),
  '/api/reviewreward/fetch/page': reviewrewardPage,
  '/api/reviewreward/export': listExport(reviewrewardPage, '好评奖励申请'),
  '/api/reviewreward/reject': endpoint({
    access: 'admin',
    permission: 'reviewreward.review',
    summary: '驳回好评奖励申请并说明原因（用户会收到站内消息）',
    input: claimId.extend({ reason: reasonNote }),
    output: z.object({ claim: reviewClaim }),
    example: { id: 1, reason: '截图看不清，请重新上传清晰的截图' },
    audit: { action: 'reviewreward.reject', label: '驳回好评奖励', target },
  }),
  '/api/reviewreward/approve': endpoint({
    access: 'admin',
    permission: 'reviewreward.review',
    summary: '通过好评奖励申请（待审核或复核已驳回的）：按设置的金额发放金币，用户会收到站内消息',
    input: claimId,
    output: z.object({ claim: reviewClaim }),
    example: { id: 1 },
    audit: { action: 'reviewreward.approve', label: '通过好评奖励', target },
  }),
  '/api/reviewreward/fetch/settings': endpoint({
    access: 'admin',
    permission: 'reviewreward.read',
    summary: '读取好评奖励的金币数量',
    input: z.object({ app: appCode.default('tailor') }),
    output: z.object({ coins: z.number().int() }),
  }),
  '/api/reviewreward/update/settings': endpoint({
    access: 'admin',
    permission: 'reviewreward.settings',
    summary: '设置好评奖励的金币数量（只影响之后通过的申请）',
    input: z.object({ app: appCode.default('tailor'), coins: integerField(rules.reviewCoins) }),
    output: z.object({ coins: z.number().int() }),
    example: { app: 'tailor', coins: 200 },
    audit: { action: 'reviewreward.settings', label: '设置好评奖励金币', target },
  }),
};

export const reviewRewardEndpoints = {
  ...singleEndpoints,
  '/api/reviewreward/approve/batch': batchEndpoint(
    '/api/reviewreward/approve',
    singleEndpoints['/api/reviewreward/approve'],
    {
      summary: '批量通过好评奖励申请：每条各自按设置的金额发放金币（每个商店只发一次）',
      example: { ids: [1] },
    },
  ),
  '/api/reviewreward/reject/batch': batchEndpoint(
    '/api/reviewreward/reject',
    singleEndpoints['/api/reviewreward/reject'],
    {
      summary: '批量驳回好评奖励申请，原因相同（用户各自收到站内消息）',
      params: { reason: reasonNote },
      example: { ids: [1], reason: '截图与应用不符' },
    },
  ),
};

export default reviewRewardEndpoints;
type ReviewRewardEndpoints = typeof reviewRewardEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends ReviewRewardEndpoints {}
}
