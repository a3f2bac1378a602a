import { z } from 'zod';
import { orderEventKinds, orderStatuses, payMethods } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  channelCode,
  exactTotal,
  id,
  isoTime,
  order,
  page,
  paged,
  phone,
  size,
  sortBy,
  textField,
  timeRange,
  worded,
} from '../fields';
import { rules, valuesOf } from '../rules';

/**
 * Orders (订单) for VIP plans (/api/order/…). The file name sorts after plan.ts on purpose: the
 * endpoint table is collected in file-name order, and the generated example sweep needs the
 * plan its `make` example creates before an order can be made for it.
 *
 * Orders for VIP plans. The amount, days and coins are copied from the plan when the order
 * is made. Paying grants them once (VIP through the vip feature's changeVip, coins through the ledger) in the
 * transaction that records the payment; a refund takes back what is left of them.
 */
const target = auditTarget(
  'order',
  '订单',
  { key: 'order', open: 'detail={id}' },
  {
    vipTakenMs: { label: '收回的会员时长', format: 'duration' },
    vipNotTakenMs: { label: '已使用无法收回的会员时长', format: 'duration' },
    coinsTaken: '收回的金币',
    coinsNotTaken: '已使用无法收回的金币',
  },
);
export const orderStatus = worded(z.enum(valuesOf(orderStatuses), { error: '未知的订单状态' }), orderStatuses).meta({
  title: '订单状态',
});
export const payMethod = worded(
  z.enum(valuesOf(payMethods), { error: '支付方式只能是 alipay 或 wechat' }),
  payMethods,
).meta({ title: '支付方式' });
const orderId = z.object({ id: id.meta({ title: '订单 ID' }) });
const note = textField(rules.orderNote);

export const orderRow = z.object({
  id,
  orderNo: z.string(),
  userId: id,
  userPhone: z.string().meta({ description: '脱敏手机号' }),
  planId: id,
  planName: z.string(),
  app: z.string(),
  channel: z.string(),
  payMethod,
  /** Fen. */
  amount: z.number().int(),
  durationDays: z.number().int().nullable(),
  bonusCoins: z.number().int(),
  status: orderStatus,
  transactionId: z.string().nullable(),
  createdAt: isoTime,
  expiresAt: isoTime,
  paidAt: isoTime.nullable(),
  updatedAt: isoTime,
});
export type OrderRow = z.infer<typeof orderRow>;

export const orderEvent = z.object({
  id,
  kind: worded(z.enum(valuesOf(orderEventKinds)), orderEventKinds),
  operatorId: z.number().int().nullable(),
  operatorName: z.string().nullable(),
  note: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  createdAt: isoTime,
});

export const orderFilter = timeRange.extend({
  status: orderStatus.optional(),
  payMethod: payMethod.optional(),
  channel: channelCode.optional(),
  app: appCode.optional(),
  phone: phone.optional().meta({ title: '用户手机号' }),
});

/** What a refund took back, and what it could not (already used). */
const refundOutcome = z.object({
  vipTakenMs: z.number().int(),
  vipNotTakenMs: z.number().int(),
  coinsTaken: z.number().int(),
  coinsNotTaken: z.number().int(),
});

/** The list's order, which its export keeps. */
const orderSort = { sort: sortBy(['createdAt', 'amount']), order };

export const orderEndpoints = {
  '/api/order/make': endpoint({
    access: 'user',
    summary: 'App：为在售套餐创建订单（订单号由服务器生成，金额取下单时的套餐价格；30 分钟内未支付自动关闭）',
    input: z.object({
      /** The app placing it; given, the plan must be that app's (the order is the plan's app's either way). */
      app: appCode.optional(),
      planId: id.meta({ title: '套餐 ID' }),
      payMethod,
      channel: channelCode.default('other'),
    }),
    output: z.object({ order: orderRow }),
    example: { planId: 1, payMethod: 'alipay', channel: 'huawei' },
    idempotent: true,
  }),
  '/api/order/fetch/mine': endpoint({
    access: 'user',
    summary: 'App：读取自己的一笔订单（按订单号），用于支付后查询状态',
    input: z.object({ orderNo: textField({ kind: 'text', title: '订单号', min: 1, max: 32 }) }),
    output: z.object({ order: orderRow }),
    example: { orderNo: '20261123120000123456' },
  }),
  '/api/order/fetch/page': endpoint({
    access: 'admin',
    permission: 'order.read',
    summary: '分页查询订单（状态、支付方式、渠道、时间、用户手机号）',
    input: orderFilter.extend({ page, size, exactTotal, ...orderSort }),
    output: paged(orderRow),
  }),
  '/api/order/fetch/totals': endpoint({
    access: 'admin',
    permission: 'order.read',
    summary: '筛选结果的合计：订单数、金额，其中已支付与已退款',
    input: orderFilter,
    output: z.object({
      count: z.number().int(),
      amount: z.number().int(),
      paidCount: z.number().int(),
      paidAmount: z.number().int(),
      refundedCount: z.number().int(),
      refundedAmount: z.number().int(),
    }),
  }),
  '/api/order/fetch/detail': endpoint({
    access: 'admin',
    permission: 'order.read',
    summary: '订单详情与完整时间线',
    input: orderId,
    output: z.object({ order: orderRow, events: z.array(orderEvent) }),
    example: { id: 1 },
  }),
  '/api/order/cancel': endpoint({
    access: 'admin',
    permission: 'order.cancel',
    summary: '取消待支付的订单',
    input: orderId.extend({ note }),
    output: z.object({ order: orderRow }),
    example: { id: 1, note: '用户要求取消' },
    audit: { action: 'order.cancel', label: '取消订单', target },
  }),
  '/api/order/pay': endpoint({
    access: 'admin',
    permission: 'order.pay',
    summary:
      '人工确认收款（发放会员时长与赠送金币，无论重试或并发只发放一次；已关闭或已取消的订单确认收到款项后也可确认）',
    input: orderId.extend({
      note,
      transactionId: textField({ kind: 'text', title: '交易流水号', min: 0, max: 64 }).default(''),
    }),
    output: z.object({ order: orderRow }),
    example: { id: 1, note: '客户转账已到账', transactionId: '2026112322001400001234567890' },
    audit: { action: 'order.pay', label: '确认订单收款', target },
  }),
  '/api/order/refund': endpoint({
    access: 'admin',
    permission: 'order.refund',
    summary: '退款：记录退款并收回尚可收回的会员时长与未使用的赠送金币，说明无法收回的部分',
    input: orderId.extend({ note }),
    output: z.object({ order: orderRow, outcome: refundOutcome }),
    example: { id: 1, note: '用户申请退款' },
    audit: { action: 'order.refund', label: '订单退款', target },
  }),
  '/api/order/export': endpoint({
    access: 'admin',
    permission: 'order.export',
    summary: '导出筛选后的全部订单为 Excel',
    input: orderFilter.extend(orderSort),
    output: z.unknown(),
    download: 'xlsx',
  }),
};

export default orderEndpoints;
type OrderEndpoints = typeof orderEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends OrderEndpoints {}
}
