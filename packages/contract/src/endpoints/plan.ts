import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { platforms } from '../constants';
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

/**
 * VIP plans (会员套餐) per app. Money is integer fen. An order copies the price, days and coins
 * of its plan when it is made, so later price changes never alter existing orders.
 */
const target = auditTarget('plan', '会员套餐', 'plan', {
  iosProductId: '苹果商品 ID',
  androidProductId: '安卓商品 ID',
});
const planId = z.object({ id: id.meta({ title: '套餐 ID' }) });
export const platform = worded(z.enum(valuesOf(platforms), { error: '平台只能是 ios 或 android' }), platforms).meta({
  title: '平台',
});
const onSale = z.boolean({ error: '是否上架必须是布尔值' }).meta({ title: '是否上架' });
const lifetime = z.boolean({ error: '是否永久必须是布尔值' }).meta({ title: '永久会员' });

export const plan = z.object({
  id,
  app: z.string(),
  name: z.string(),
  description: z.string(),
  /** Fen. */
  price: z.number().int(),
  /** Fen; 0 when there is no crossed-out price. */
  originalPrice: z.number().int(),
  /** null: lifetime. */
  durationDays: z.number().int().nullable(),
  bonusCoins: z.number().int(),
  iosProductId: z.string(),
  androidProductId: z.string(),
  sort: z.number().int(),
  onSale: z.boolean(),
  badge: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type Plan = z.infer<typeof plan>;

/** What an app shows on its purchase page. */
export const salePlan = plan
  .pick({
    id: true,
    name: true,
    description: true,
    price: true,
    originalPrice: true,
    durationDays: true,
    bonusCoins: true,
    badge: true,
  })
  .extend({ productId: z.string().meta({ description: '该平台的内购商品 ID（可能为空）' }) });

const fields = {
  app: appCode,
  name: textField(rules.planName),
  description: textField(rules.planDescription),
  price: integerField(rules.price),
  originalPrice: integerField(rules.originalPrice),
  durationDays: integerField(rules.durationDays),
  lifetime,
  bonusCoins: integerField(rules.bonusCoins),
  iosProductId: textField(rules.productId),
  androidProductId: textField(rules.productId),
  sort: integerField(rules.sort),
  onSale,
  badge: textField(rules.badge),
};

const example = {
  app: 'tailor',
  name: '年度会员',
  description: '全部功能一年畅用',
  price: 9800,
  originalPrice: 19800,
  durationDays: 365,
  bonusCoins: 500,
  iosProductId: 'com.example.tailor.vip.year',
  sort: 10,
  onSale: true,
  badge: '限时优惠',
} as const;

const planPage = endpoint({
  access: 'admin',
  permission: 'plan.read',
  summary: '分页查询会员套餐（应用、上架状态）',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    onSale: onSale.optional(),
    sort: sortBy(['sort', 'price', 'createdAt']),
    order: order.default('ascend'),
  }),
  output: paged(plan),
});

const singleEndpoints = {
  '/api/plan/make': endpoint({
    access: 'admin',
    permission: 'plan.edit',
    summary: '新建会员套餐（金额单位：分）',
    input: z.object({
      ...fields,
      app: fields.app.default('tailor'),
      description: fields.description.default(''),
      originalPrice: fields.originalPrice.default(0),
      durationDays: fields.durationDays.default(30),
      lifetime: lifetime.default(false),
      bonusCoins: fields.bonusCoins.default(0),
      iosProductId: fields.iosProductId.default(''),
      androidProductId: fields.androidProductId.default(''),
      sort: fields.sort.default(0),
      onSale: onSale.default(false),
      badge: fields.badge.default(''),
    }),
    output: z.object({ plan }),
    example,
    audit: { action: 'plan.make', label: '新建会员套餐', target },
  }),
  '/api/plan/update': endpoint({
    access: 'admin',
    permission: 'plan.edit',
    summary: '修改会员套餐（只改传入的字段；已有订单不受影响）',
    input: planId.extend({
      app: fields.app.optional(),
      name: fields.name.optional(),
      description: fields.description.optional(),
      price: fields.price.optional(),
      originalPrice: fields.originalPrice.optional(),
      durationDays: fields.durationDays.optional(),
      lifetime: lifetime.optional(),
      bonusCoins: fields.bonusCoins.optional(),
      iosProductId: fields.iosProductId.optional(),
      androidProductId: fields.androidProductId.optional(),
      sort: fields.sort.optional(),
      onSale: onSale.optional(),
      badge: fields.badge.optional(),
    }),
    output: z.object({ plan }),
    example: { id: 1, price: 8800 },
    audit: { action: 'plan.update', label: '修改会员套餐', target },
  }),
  '/api/plan/fetch/page': planPage,
  '/api/plan/export': listExport(planPage, '会员套餐'),
  '/api/plan/fetch/detail': endpoint({
    access: 'admin',
    permission: 'plan.read',
    summary: '读取一个会员套餐',
    input: planId,
    output: z.object({ plan }),
    example: { id: 1 },
  }),
  '/api/plan/fetch/onsale': endpoint({
    access: 'public',
    summary: 'App：某个应用在某个平台上在售的会员套餐（按排序值；iOS 只列出配置了 iOS 内购商品 ID 的套餐）',
    input: z.object({ app: appCode, platform }),
    output: z.object({ list: z.array(salePlan) }),
    example: { app: 'tailor', platform: 'ios' },
  }),
};

export const planEndpoints = {
  ...singleEndpoints,
  '/api/plan/update/onsale/batch': batchEndpoint('/api/plan/update', singleEndpoints['/api/plan/update'], {
    summary: '批量上架或下架会员套餐',
    params: { onSale: onSale },
    example: { ids: [1], onSale: true },
  }),
};

export default planEndpoints;
type PlanEndpoints = typeof planEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends PlanEndpoints {}
}
