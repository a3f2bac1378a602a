import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { DEFAULT_APP, exchangeKinds, exchangeStatuses, MAX_CODES_PER_IMPORT } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  dateTimeField,
  exactTotal,
  id,
  integerField,
  isoTime,
  listExport,
  order,
  page,
  paged,
  phone,
  size,
  sortBy,
  textField,
  worded,
} from '../fields';
import { rules, valuesOf } from '../rules';

/**
 * The coin shop (积分商城): exchange items operators set up, and the app's redemption of them.
 * A redemption checks and applies coins (through the ledger), stock, the per-user limit, the
 * availability window and the enabled flag in one transaction; VIP days and coins are granted at
 * once, a code item hands over one of its imported codes, a physical item waits for shipping.
 */
const target = auditTarget('exchange_item', '兑换商品', 'exchange', {
  image: { label: '图片', format: 'file' },
  description: '商品说明',
  value: '面值（天数或金币）',
  costCoins: '所需金币',
  perUserLimit: '每人限兑',
  startsAt: '开始时间',
  endsAt: '结束时间',
});
export const exchangeKind = worded(
  z.enum(valuesOf(exchangeKinds), { error: '商品类型只能是 vip_days、coins、physical 或 code' }),
  exchangeKinds,
).meta({ title: '商品类型' });
export const exchangeStatus = worded(
  z.enum(valuesOf(exchangeStatuses), { error: '未知的兑换状态' }),
  exchangeStatuses,
).meta({ title: '兑换状态' });
const itemId = id.meta({ title: '商品 ID' });
const enabled = z.boolean({ error: '是否上架必须是布尔值' }).meta({ title: '是否上架' });
const when = (title: string) => dateTimeField(title).nullable();

export const exchangeItem = z.object({
  id,
  /** The app whose shop offers it (coins are company-wide; items are per app). */
  app: z.string(),
  name: z.string(),
  image: z.string(),
  description: z.string(),
  kind: exchangeKind,
  /** VIP days or coins granted; 0 for physical goods and codes. */
  value: z.number().int(),
  costCoins: z.number().int(),
  /** Left in stock; null: unlimited. For code items: the codes not yet handed out. */
  stock: z.number().int().nullable(),
  /** 0: no limit. */
  perUserLimit: z.number().int(),
  startsAt: isoTime.nullable(),
  endsAt: isoTime.nullable(),
  sort: z.number().int(),
  enabled: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ExchangeItem = z.infer<typeof exchangeItem>;

/** What the app shows in its shop. */
export const shopItem = exchangeItem.pick({
  id: true,
  name: true,
  image: true,
  description: true,
  kind: true,
  value: true,
  costCoins: true,
  stock: true,
  perUserLimit: true,
  startsAt: true,
  endsAt: true,
});

/** A redemption as its user sees it. */
export const myExchange = z.object({
  recordNo: z.string(),
  /** The item's app. */
  app: z.string(),
  itemId: id,
  itemName: z.string(),
  kind: exchangeKind,
  value: z.number().int(),
  cost: z.number().int(),
  status: exchangeStatus,
  /** The handed-over code (code items). */
  code: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  createdAt: isoTime,
  shippedAt: isoTime.nullable(),
});

const fields = {
  name: textField(rules.exchangeName),
  image: textField(rules.imageUrl),
  description: textField(rules.exchangeDescription),
  kind: exchangeKind,
  value: integerField(rules.exchangeValue),
  costCoins: integerField(rules.exchangeCost),
  stock: integerField(rules.exchangeStock).nullable(),
  perUserLimit: integerField(rules.perUserLimit),
  startsAt: when('开始时间'),
  endsAt: when('结束时间'),
  sort: integerField(rules.sort),
  enabled,
};

const exchangeItemPage = endpoint({
  access: 'admin',
  permission: 'exchange.read',
  summary: '分页查询兑换商品（类型、上架状态）',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    kind: exchangeKind.optional(),
    enabled: enabled.optional(),
    sort: sortBy(['sort', 'costCoins', 'createdAt']),
    order: order.default('ascend'),
  }),
  output: paged(exchangeItem.extend({ redeemed: z.number().int() })),
});

const singleEndpoints = {
  '/api/exchange/item/make': endpoint({
    access: 'admin',
    permission: 'exchange.edit',
    summary: '新建兑换商品（兑换码商品的库存由导入的兑换码决定）',
    input: z.object({
      ...fields,
      app: appCode.default(DEFAULT_APP),
      image: fields.image.default(''),
      description: fields.description.default(''),
      value: fields.value.default(0),
      stock: fields.stock.default(null),
      perUserLimit: fields.perUserLimit.default(0),
      startsAt: fields.startsAt.default(null),
      endsAt: fields.endsAt.default(null),
      sort: fields.sort.default(0),
      enabled: enabled.default(false),
    }),
    output: z.object({ item: exchangeItem }),
    example: { name: '视频会员月卡兑换码', kind: 'code', costCoins: 3000, perUserLimit: 1, enabled: true },
    audit: { action: 'exchange.item.make', label: '新建兑换商品', target },
  }),
  '/api/exchange/item/update': endpoint({
    access: 'admin',
    permission: 'exchange.edit',
    summary: '修改兑换商品（只改传入的字段；已兑换的记录不受影响）',
    input: z.object({
      id: itemId,
      app: appCode.optional(),
      name: fields.name.optional(),
      image: fields.image.optional(),
      description: fields.description.optional(),
      value: fields.value.optional(),
      costCoins: fields.costCoins.optional(),
      stock: fields.stock.optional(),
      perUserLimit: fields.perUserLimit.optional(),
      startsAt: fields.startsAt.optional(),
      endsAt: fields.endsAt.optional(),
      sort: fields.sort.optional(),
      enabled: enabled.optional(),
    }),
    output: z.object({ item: exchangeItem }),
    example: { id: 1, costCoins: 800 },
    audit: { action: 'exchange.item.update', label: '修改兑换商品', target },
  }),
  '/api/exchange/item/copy': endpoint({
    access: 'admin',
    permission: 'exchange.edit',
    summary: '复制兑换商品为一个新的、未上架的商品（可换一种类型；兑换码和兑换记录不复制）',
    input: z.object({ id: itemId, kind: exchangeKind.optional() }),
    output: z.object({ item: exchangeItem }),
    example: { id: 1, kind: 'physical' },
    audit: { action: 'exchange.item.copy', label: '复制兑换商品', target },
  }),
  '/api/exchange/item/fetch/page': exchangeItemPage,
  '/api/exchange/item/export': listExport(exchangeItemPage, '兑换商品'),
  '/api/exchange/item/fetch/detail': endpoint({
    access: 'admin',
    permission: 'exchange.read',
    summary: '读取一个兑换商品，兑换码商品附带兑换码的总数与已发放数',
    input: z.object({ id: itemId }),
    output: z.object({ item: exchangeItem, codes: z.object({ total: z.number().int(), used: z.number().int() }) }),
    example: { id: 1 },
  }),
  '/api/exchange/code/import': endpoint({
    access: 'admin',
    permission: 'exchange.edit',
    summary: `为兑换码商品导入一批兑换码（粘贴的文本或 CSV：每行或每个逗号分隔一个；或 .xlsx 文件的 base64，取第一个工作表的第一列），一次最多 ${MAX_CODES_PER_IMPORT} 个，重复的跳过`,
    input: z.object({
      itemId,
      text: z.string({ error: '兑换码文本必须是字符串' }).max(400_000, { error: '兑换码文本过长' }).default(''),
      xlsxBase64: z
        .string({ error: '文件内容必须是 base64 字符串' })
        .max(700_000, { error: '文件过大（最多约 500 KB）' })
        .regex(/^[A-Za-z0-9+/=]*$/, { error: '文件内容不是 base64' })
        .default('')
        .meta({ title: '文件' }),
    }),
    output: z.object({ added: z.number().int(), skipped: z.number().int(), stock: z.number().int() }),
    example: { itemId: 1, text: 'VIP-AAAA-0001\nVIP-AAAA-0002' },
    audit: { action: 'exchange.code.import', label: '导入兑换码', target },
  }),
  '/api/exchange/fetch/list': endpoint({
    access: 'public',
    summary: 'App：本应用积分商城里当前可兑换的商品（已上架、在兑换时间内，按排序值）',
    input: z.object({ app: appCode.default(DEFAULT_APP) }),
    output: z.object({ list: z.array(shopItem) }),
  }),
  '/api/exchange/make': endpoint({
    access: 'user',
    summary:
      'App：用金币兑换商品。金币、库存、每人限兑、兑换时间和上架状态在同一事务中检查并扣减；会员天数与金币立即到账，兑换码当场发放，实物需填写收货信息并等待发货',
    input: z.object({
      app: appCode.default(DEFAULT_APP),
      itemId,
      receiverName: textField(rules.receiverName).optional(),
      receiverPhone: phone.optional().meta({ title: '收货手机号' }),
      address: textField(rules.address).optional(),
    }),
    output: z.object({ record: myExchange, coins: z.number().int().meta({ description: '兑换后的金币余额' }) }),
    example: { itemId: 1 },
    idempotent: true,
  }),
  '/api/exchange/fetch/mine': endpoint({
    access: 'user',
    summary: 'App：自己在本应用的兑换记录（新的在前）',
    input: z.object({ app: appCode.default(DEFAULT_APP), page, size }),
    output: paged(myExchange),
  }),
};

export const exchangeEndpoints = {
  ...singleEndpoints,
  '/api/exchange/item/update/enabled/batch': batchEndpoint(
    '/api/exchange/item/update',
    singleEndpoints['/api/exchange/item/update'],
    {
      summary: '批量上架或下架兑换商品',
      params: { enabled },
      example: { ids: [1], enabled: true },
    },
  ),
};

export default exchangeEndpoints;
type ExchangeEndpoints = typeof exchangeEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends ExchangeEndpoints {}
}
