import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { iapProductTypes } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
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
  size,
  sortBy,
  textField,
  worded,
} from '../fields';
import { rules, valuesOf } from '../rules';
import { platform } from './plan';

/**
 * In-app purchase products (内购商品) per app and platform: what a store product id grants when a
 * verified purchase of it arrives (iaprecord). Money is integer fen; the price is the list price
 * operators reconcile against, the store's own price list decides what the buyer pays.
 */
const target = auditTarget('iap', '内购商品', 'iap', { coins: '赠送金币' });
const productKey = z.object({ id: id.meta({ title: '内购商品 ID' }) });
export const iapProductType = worded(
  z.enum(valuesOf(iapProductTypes), { error: '商品类型只能是 consumable、non_consumable 或 subscription' }),
  iapProductTypes,
).meta({ title: '商品类型' });
const enabled = z.boolean({ error: '是否启用必须是布尔值' }).meta({ title: '是否启用' });

export const iapProduct = z.object({
  id,
  app: z.string(),
  platform,
  productId: z.string(),
  type: iapProductType,
  name: z.string(),
  /** Fen. */
  price: z.number().int(),
  vipDays: z.number().int(),
  coins: z.number().int(),
  enabled: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type IapProduct = z.infer<typeof iapProduct>;

const fields = {
  app: appCode,
  platform,
  productId: textField(rules.iapProductId),
  type: iapProductType,
  name: textField(rules.iapName),
  price: integerField(rules.price),
  vipDays: integerField(rules.iapVipDays),
  coins: integerField(rules.iapCoins),
  enabled,
};

const iapPage = endpoint({
  access: 'admin',
  permission: 'iap.read',
  summary: '分页查询内购商品（应用、平台、类型、启用状态）',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    platform: platform.optional(),
    type: iapProductType.optional(),
    enabled: enabled.optional(),
    sort: sortBy(['createdAt', 'price']),
    order,
  }),
  output: paged(iapProduct),
});

const singleEndpoints = {
  '/api/iap/make': endpoint({
    access: 'admin',
    permission: 'iap.edit',
    summary: '新建内购商品（每个应用、平台下商品 ID 唯一；金额单位：分；至少发放会员天数或金币之一）',
    input: z.object({
      ...fields,
      app: fields.app.default('tailor'),
      vipDays: fields.vipDays.default(0),
      coins: fields.coins.default(0),
      enabled: enabled.default(true),
    }),
    output: z.object({ product: iapProduct }),
    example: {
      app: 'tailor',
      platform: 'ios',
      productId: 'com.example.tailor.vip.month',
      type: 'subscription',
      name: '连续包月',
      price: 1800,
      vipDays: 31,
      coins: 0,
      enabled: true,
    },
    audit: { action: 'iap.make', label: '新建内购商品', target },
  }),
  '/api/iap/update': endpoint({
    access: 'admin',
    permission: 'iap.edit',
    summary: '修改内购商品（只改传入的字段；已发放的记录不受影响）',
    input: productKey.extend({
      app: fields.app.optional(),
      platform: fields.platform.optional(),
      productId: fields.productId.optional(),
      type: fields.type.optional(),
      name: fields.name.optional(),
      price: fields.price.optional(),
      vipDays: fields.vipDays.optional(),
      coins: fields.coins.optional(),
      enabled: enabled.optional(),
    }),
    output: z.object({ product: iapProduct }),
    example: { id: 1, price: 1500 },
    audit: { action: 'iap.update', label: '修改内购商品', target },
  }),
  '/api/iap/fetch/page': iapPage,
  '/api/iap/export': listExport(iapPage, '内购商品'),
  '/api/iap/fetch/detail': endpoint({
    access: 'admin',
    permission: 'iap.read',
    summary: '读取一个内购商品',
    input: productKey,
    output: z.object({ product: iapProduct }),
    example: { id: 1 },
  }),
};

export const iapEndpoints = {
  ...singleEndpoints,
  '/api/iap/update/enabled/batch': batchEndpoint('/api/iap/update', singleEndpoints['/api/iap/update'], {
    summary: '批量启用或停用内购商品',
    params: { enabled },
    example: { ids: [1], enabled: true },
  }),
};

export default iapEndpoints;
type IapEndpoints = typeof iapEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends IapEndpoints {}
}
