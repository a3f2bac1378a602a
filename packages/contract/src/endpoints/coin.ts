import { z } from 'zod';
import { endpoint } from '../endpoint';
import { id, isoTime, page, paged, size, timeRange } from '../fields';

/** Why a balance changed (DESIGN.md data model). */
export const coinReasons = [
  { value: 'register', label: '注册赠送' },
  { value: 'order', label: '购买套餐' },
  { value: 'iap', label: '应用内购买' },
  { value: 'exchange', label: '兑换商品' },
  { value: 'review_reward', label: '好评奖励' },
  { value: 'selfapp', label: '推广奖励' },
  { value: 'admin', label: '管理员调整' },
] as const;
export type CoinReason = (typeof coinReasons)[number]['value'];
export const coinReason = z.enum(coinReasons.map((r) => r.value) as [CoinReason, ...CoinReason[]], {
  error: '未知的金币变动原因',
});

export const coinRecord = z.object({
  id,
  userId: id,
  userPhone: z.string(),
  delta: z.number().int(),
  balanceAfter: z.number().int(),
  reason: coinReason,
  refType: z.string().nullable(),
  refId: z.string().nullable(),
  operatorId: z.number().int().nullable(),
  note: z.string().nullable(),
  createdAt: isoTime,
});
export type CoinRecord = z.infer<typeof coinRecord>;

export const coinFilter = timeRange.extend({
  userId: id.optional().meta({ title: '用户 ID' }),
  reason: coinReason.optional().meta({ title: '变动原因' }),
});

export const coinEndpoints = {
  '/api/coin/fetch/page': endpoint({
    access: 'admin',
    summary: '分页查询金币流水（按用户、原因、时间筛选）',
    input: coinFilter.extend({ page, size }),
    output: paged(coinRecord),
  }),
  '/api/coin/export': endpoint({
    access: 'admin',
    summary: '导出筛选后的全部金币流水为 Excel',
    input: coinFilter,
    output: z.unknown(),
    download: 'xlsx',
  }),
};
