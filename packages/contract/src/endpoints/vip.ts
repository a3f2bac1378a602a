import { z } from 'zod';
import { vipReasons } from '../constants';
import { endpoint } from '../endpoint';
import {
  appCode,
  exactTotal,
  id,
  integerField,
  isoTime,
  listExport,
  order,
  page,
  paged,
  reasonNote,
  size,
  sortBy,
  userId,
  worded,
} from '../fields';
import { rules, valuesOf } from '../rules';
import { userTarget } from './users';

/**
 * VIP (会员): a user's expiry per app (VIP in 滚动截屏 says nothing of 名言) and its history. Every grant (orders, in-app
 * purchases, redemptions, operators) goes through one server function and leaves a record.
 */
const target = userTarget;
export const vipReason = worded(
  worded(z.enum(valuesOf(vipReasons), { error: '未知的会员变动原因' }), vipReasons),
  vipReasons,
).meta({
  title: '变动原因',
});

export const vipRecord = z.object({
  id,
  userId: id,
  userPhone: z.string(),
  app: appCode,
  /** Days asked for (negative: taken back); null for lifetime. */
  days: z.number().int().nullable(),
  beforeExpiresAt: isoTime.nullable(),
  afterExpiresAt: isoTime.nullable(),
  reason: vipReason,
  refType: z.string().nullable(),
  refId: z.string().nullable(),
  operatorId: z.number().int().nullable(),
  note: z.string().nullable(),
  createdAt: isoTime,
});
export type VipRecord = z.infer<typeof vipRecord>;

const vipPage = endpoint({
  access: 'admin',
  permission: 'users.read',
  summary: '分页查询会员变动记录（按用户、应用、原因）',
  input: z.object({
    page,
    size,
    exactTotal,
    userId: userId.optional(),
    app: appCode.optional(),
    reason: vipReason.optional(),
    sort: sortBy(['createdAt']),
    order,
  }),
  output: paged(vipRecord),
  example: { userId: 3 },
});

export const vipEndpoints = {
  '/api/vip/update': endpoint({
    access: 'admin',
    permission: 'users.vip',
    summary: '管理员调整用户在某个应用的会员时长（正数延长，负数收回；记入会员记录）',
    input: z.object({ id: userId, app: appCode, days: integerField(rules.vipDays), reason: reasonNote }),
    output: z.object({ vipExpiresAt: isoTime.nullable(), recordId: id }),
    example: { id: 3, app: 'tailor', days: 30, reason: '客服补偿' } as const,
    audit: { action: 'vip.update', label: '调整会员时长', target },
    idempotent: true,
  }),
  '/api/vip/fetch/page': vipPage,
  '/api/vip/export': listExport(vipPage, '会员变动记录'),
};

export default vipEndpoints;
type VipEndpoints = typeof vipEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends VipEndpoints {}
}
