import { z } from 'zod';
import { DEFAULT_APP, iapEnvironments, iapRecordStatuses } from '../constants';
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
  phone,
  size,
  sortBy,
  textField,
  timeRange,
  worded,
} from '../fields';
import { valuesOf } from '../rules';
import { platform } from './plan';

/**
 * In-app purchase receipts (内购记录). An app posts what the store gave it (a StoreKit 2 signed
 * transaction, a Google Play purchase token); the server verifies it, keeps it, and grants the
 * product once per store transaction. App Store Server Notifications V2 arrive at their own
 * endpoint and are applied once.
 */
export const iapRecordStatus = worded(
  z.enum(valuesOf(iapRecordStatuses), { error: '未知的记录状态' }),
  iapRecordStatuses,
).meta({ title: '记录状态' });
const environment = worded(
  z.enum(valuesOf(iapEnvironments), { error: '环境只能是 Production 或 Sandbox' }),
  iapEnvironments,
).meta({ title: '环境' });

export const iapRecord = z.object({
  id,
  userId: z.number().int().nullable(),
  userPhone: z.string().nullable().meta({ description: '脱敏手机号' }),
  app: z.string(),
  platform,
  productId: z.string(),
  productName: z.string().nullable(),
  /** The store's transaction id (Google: the order id, or the purchase token while pending). */
  transactionId: z.string().nullable(),
  originalTransactionId: z.string().nullable(),
  environment: z.string().nullable(),
  status: iapRecordStatus,
  /** Why it was rejected or is pending, in Chinese. */
  reason: z.string().nullable(),
  vipDays: z.number().int(),
  coins: z.number().int(),
  purchasedAt: isoTime.nullable(),
  expiresAt: isoTime.nullable(),
  refundedAt: isoTime.nullable(),
  createdAt: isoTime,
});
export type IapRecord = z.infer<typeof iapRecord>;

export const iapNotification = z.object({
  id,
  type: z.string(),
  subtype: z.string().nullable(),
  status: z.string(),
  reason: z.string().nullable(),
  createdAt: isoTime,
});

const filter = timeRange.extend({
  app: appCode.optional(),
  platform: platform.optional(),
  environment: environment.optional(),
  status: iapRecordStatus.optional(),
  productId: textField({ kind: 'text', title: '商品 ID', min: 1, max: 100 }).optional(),
  phone: phone.optional().meta({ title: '用户手机号' }),
});
const mine = z.object({
  record: iapRecord,
  /** True when this transaction had already been recorded: nothing was granted again. */
  duplicate: z.boolean(),
});

const iaprecordPage = endpoint({
  access: 'admin',
  permission: 'iaprecord.read',
  summary: '分页查询内购记录（应用、平台、环境、状态、商品、用户手机号、时间）',
  input: filter.extend({ page, size, exactTotal, sort: sortBy(['createdAt']), order }),
  output: paged(iapRecord),
});

export const iapRecordEndpoints = {
  '/api/iaprecord/apple': endpoint({
    access: 'user',
    summary:
      'App：提交 StoreKit 2 签名交易（JWS）。按所属应用的 App Store 设置离线验证签名、证书链、Bundle ID 与环境后记录在该应用下，并按交易号只发放一次；验证不通过的记录为已拒绝并说明原因。交易（连同其订阅与 appAccountToken）归首个提交成功的账号，其他账号提交的记为已拒绝，且不透露购买者',
    input: z.object({
      app: appCode.default(DEFAULT_APP),
      signedTransaction: textField({ kind: 'text', title: '签名交易', min: 1, max: 20_000 }),
    }),
    output: mine,
    example: { app: 'tailor', signedTransaction: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln' },
    idempotent: true,
  }),
  '/api/iaprecord/google': endpoint({
    access: 'user',
    summary:
      'App：提交 Google Play 购买（商品 ID 与购买令牌）。所属应用配置了安卓包名和服务账号时经 Android Publisher 接口验证后发放，否则记为待验证；购买令牌归首个提交成功的账号，其他账号提交的记为已拒绝',
    input: z.object({
      app: appCode.default(DEFAULT_APP),
      productId: textField({ kind: 'text', title: '商品 ID', min: 1, max: 100 }),
      purchaseToken: textField({ kind: 'text', title: '购买令牌', min: 1, max: 2_000 }),
    }),
    output: mine,
    example: { app: 'tailor', productId: 'com.example.tailor.coins', purchaseToken: 'token-example' },
    idempotent: true,
  }),
  '/api/iaprecord/apple/notify': endpoint({
    access: 'public',
    summary:
      'App Store 服务器通知 V2（REFUND、REVOKE、DID_RENEW 等）：按通知中的 Bundle ID 找到应用，以该应用的设置验证签名后按通知只处理一次；验证不通过的只保留简短摘要（每个来源地址每小时至多 10 条），未配置 App Store 校验时不保存任何内容',
    input: z.object({ signedPayload: textField({ kind: 'text', title: '签名通知', min: 1, max: 100_000 }) }),
    output: z.object({ status: z.string(), reason: z.string().nullable() }),
    example: { signedPayload: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln' },
  }),
  '/api/iaprecord/fetch/page': iaprecordPage,
  '/api/iaprecord/export': listExport(iaprecordPage, '内购记录'),
  '/api/iaprecord/fetch/detail': endpoint({
    access: 'admin',
    permission: 'iaprecord.read',
    summary: '内购记录详情：解码后的交易内容与相关的服务器通知',
    input: z.object({ id: id.meta({ title: '记录 ID' }) }),
    output: z.object({
      record: iapRecord,
      payload: z.record(z.string(), z.unknown()).nullable(),
      notifications: z.array(iapNotification),
    }),
    example: { id: 1 },
  }),
  '/api/iaprecord/fetch/config': endpoint({
    access: 'admin',
    permission: 'iaprecord.read',
    summary: '一个应用的各商店验证是否已配置（未配置时其内购记录保持待验证）',
    input: z.object({ app: appCode.default(DEFAULT_APP) }),
    output: z.object({ apple: z.boolean(), appleEnvironments: z.array(z.string()), google: z.boolean() }),
  }),
};

export default iapRecordEndpoints;
type IapRecordEndpoints = typeof iapRecordEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends IapRecordEndpoints {}
}
