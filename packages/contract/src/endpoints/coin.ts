import { z } from 'zod';
import { coinReasons } from '../constants';
import { endpoint } from '../endpoint';
import { choice, exactTotal, id, isoTime, order, page, paged, phone, size, sortBy, timeRange, worded } from '../fields';
import { valuesOf } from '../rules';

export const coinReason = worded(z.enum(valuesOf(coinReasons), { error: '未知的金币变动原因' }), coinReasons);

export const coinRecord = z.object({
  id,
  userId: id,
  userPhone: z.string().meta({ title: '手机号', description: '脱敏' }),
  userNickname: z.string(),
  delta: z.number().int(),
  balanceAfter: z.number().int(),
  reason: coinReason,
  refType: z.string().nullable(),
  refId: z.string().nullable(),
  operatorId: z.number().int().nullable(),
  operatorPhone: z.string().nullable().meta({ title: '操作人手机号', description: '脱敏' }),
  operatorNickname: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: isoTime,
});
export type CoinRecord = z.infer<typeof coinRecord>;

export const coinFilter = timeRange.extend({
  userId: id.optional().meta({ title: '用户 ID' }),
  phone: phone.optional().meta({ title: '用户手机号', description: '完整的 11 位手机号' }),
  reason: coinReason.optional().meta({ title: '变动原因' }),
  /** in: coins given (delta > 0); out: coins taken (delta < 0). */
  direction: choice('收支', [
    { value: 'in', label: '收入' },
    { value: 'out', label: '支出' },
  ]).optional(),
});

/** The list's order, which its export keeps. */
const coinSort = { sort: sortBy(['createdAt', 'delta']), order };

export const coinEndpoints = {
  '/api/coin/fetch/page': endpoint({
    access: 'admin',
    permission: 'coin.read',
    summary: '分页查询金币流水（按用户 ID 或手机号、原因、时间筛选）',
    input: coinFilter.extend({ page, size, exactTotal, ...coinSort }),
    output: paged(coinRecord),
  }),
  '/api/coin/export': endpoint({
    access: 'admin',
    permission: 'coin.export',
    summary: '导出筛选后的全部金币流水为 Excel',
    input: coinFilter.extend(coinSort),
    output: z.unknown(),
    download: 'xlsx',
  }),
};

export default coinEndpoints;
type CoinEndpoints = typeof coinEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends CoinEndpoints {}
}
