import { z } from 'zod';
import { DEFAULT_APP, paymentNotificationStatuses } from '../constants';
import { endpoint } from '../endpoint';
import {
  appCode,
  exactTotal,
  id,
  isoTime,
  listExport,
  order,
  page,
  paged,
  size,
  sortBy,
  textField,
  worded,
} from '../fields';
import { valuesOf } from '../rules';
import { payMethod } from './purchase';

/**
 * Payment platforms' asynchronous notifications (支付通知). Alipay and WeChat Pay post them to
 * /api/payment/alipay/notify and /api/payment/wechat/notify in their own formats (not this API's
 * envelope), so those two are plain routes; what arrived is listed here.
 */
const status = worded(
  z.enum(valuesOf(paymentNotificationStatuses), { error: '未知的通知状态' }),
  paymentNotificationStatuses,
).meta({ title: '处理结果' });

export const paymentNotification = z.object({
  id,
  method: payMethod,
  /** The app whose settings verified it; null when it did not verify. */
  app: z.string().nullable(),
  orderNo: z.string().nullable(),
  transactionId: z.string().nullable(),
  /** Fen, as the platform stated it. */
  amount: z.number().int().nullable(),
  status,
  reason: z.string().nullable(),
  createdAt: isoTime,
});

const paymentPage = endpoint({
  access: 'admin',
  permission: 'order.read',
  summary: '分页查询支付通知（应用、订单号、支付方式、处理结果）',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    orderNo: textField({ kind: 'text', title: '订单号', min: 1, max: 64 }).optional(),
    method: payMethod.optional(),
    status: status.optional(),
    sort: sortBy(['createdAt']),
    order,
  }),
  output: paged(paymentNotification),
});

export const paymentEndpoints = {
  '/api/payment/fetch/config': endpoint({
    access: 'admin',
    permission: 'order.read',
    summary: '一个应用的支付宝、微信支付异步通知是否已配置（未配置的支付方式不为该应用收款，其通知一律拒绝）',
    input: z.object({ app: appCode.default(DEFAULT_APP) }),
    output: z.object({ alipay: z.boolean(), wechat: z.boolean() }),
  }),
  '/api/payment/fetch/page': paymentPage,
  '/api/payment/export': listExport(paymentPage, '支付通知'),
};

export default paymentEndpoints;
type PaymentEndpoints = typeof paymentEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends PaymentEndpoints {}
}
