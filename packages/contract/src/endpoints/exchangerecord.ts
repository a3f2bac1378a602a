import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  exactTotal,
  id,
  isoTime,
  order,
  page,
  paged,
  phone,
  reasonNote,
  size,
  sortBy,
  textField,
  timeRange,
} from '../fields';
import { rules } from '../rules';
import { exchangeKind, exchangeStatus, myExchange } from './exchange';

/**
 * Exchange records (兑换记录, /api/exchange/record/…): the warehouse's list of redemptions, shipping
 * physical ones with a tracking number (the user gets an in-app message), cancelling (coins and
 * stock go back through the ledger), a compensation sent by an operator, and the .xlsx export.
 * A receiver's phone is there for delivery: masked in the list, whole on an explicit, logged look
 * (record/fetch/phone) and in the warehouse's export (whose log row says it holds them); the
 * user's own account phone stays masked everywhere.
 * The file sorts after exchange.ts: its examples act on the item and record those examples make.
 */
const target = auditTarget('exchange_record', '兑换记录', 'exchangerecord', {
  recordNo: '兑换单号',
  itemName: '商品名称',
  value: '面值（天数或金币）',
  cost: '花费金币',
  code: '兑换码',
  userPhone: '用户手机号',
  shippedAt: '发货时间',
  cancelledAt: '取消时间',
});
const recordId = z.object({ id: id.meta({ title: '兑换记录 ID' }) });
const delivery = {
  receiverName: textField(rules.receiverName).optional(),
  receiverPhone: phone.optional().meta({ title: '收货手机号' }),
  address: textField(rules.address).optional(),
};

export const exchangeRecord = myExchange.extend({
  id,
  userId: id,
  userPhone: z.string().meta({ description: '脱敏手机号' }),
  receiverName: z.string().nullable(),
  receiverPhone: z.string().nullable().meta({ description: '脱敏手机号（完整号码见 record/fetch/phone）' }),
  address: z.string().nullable(),
  note: z.string().nullable(),
  cancelledAt: isoTime.nullable(),
});
export type ExchangeRecord = z.infer<typeof exchangeRecord>;

export const recordFilter = timeRange.extend({
  app: appCode.optional(),
  itemId: id.optional().meta({ title: '商品 ID' }),
  kind: exchangeKind.optional(),
  status: exchangeStatus.optional(),
  phone: phone.optional().meta({ title: '用户手机号' }),
});

/** The list's order, which its export keeps. */
const recordSort = { sort: sortBy(['createdAt', 'cost']), order };

const singleEndpoints = {
  '/api/exchange/record/make': endpoint({
    access: 'admin',
    permission: 'exchangerecord.grant',
    summary:
      '补发：运营人员为用户发放一件兑换商品（不扣金币，如客服补偿），实物商品需填写收货信息；原因记在兑换记录的备注里',
    input: z.object({
      userId: id.meta({ title: '用户 ID' }),
      itemId: id.meta({ title: '商品 ID' }),
      ...delivery,
      note: reasonNote.meta({ title: '补发原因' }),
    }),
    output: z.object({ record: exchangeRecord }),
    example: {
      userId: 3,
      itemId: 2,
      receiverName: '张三',
      receiverPhone: '13912345678',
      address: '上海市浦东新区世纪大道 100 号',
      note: '快递丢件，客服补偿',
    },
    audit: { action: 'exchange.record.make', label: '补发兑换商品', target },
  }),
  '/api/exchange/record/fetch/page': endpoint({
    access: 'admin',
    permission: 'exchangerecord.read',
    summary: '分页查询兑换记录（商品、类型、状态、用户手机号、时间）',
    input: recordFilter.extend({ page, size, exactTotal, ...recordSort }),
    output: paged(exchangeRecord),
  }),
  '/api/exchange/record/ship': endpoint({
    access: 'admin',
    permission: 'exchangerecord.ship',
    summary: '发货：填写快递公司和快递单号（已发货的可修改单号），用户会收到站内消息',
    input: recordId.extend({ carrier: textField(rules.carrier), trackingNo: textField(rules.trackingNo) }),
    output: z.object({ record: exchangeRecord }),
    example: { id: 1, carrier: '顺丰速运', trackingNo: 'SF1234567890' },
    audit: { action: 'exchange.record.ship', label: '兑换发货', target },
  }),
  '/api/exchange/record/fetch/phone': endpoint({
    access: 'admin',
    permission: 'exchangerecord.revealPhone',
    summary: '查看实物兑换的完整收货手机号（供发货；列表中默认脱敏，每次查看记入操作日志）',
    input: recordId,
    output: z.object({ receiverPhone: z.string().meta({ title: '收货手机号' }) }),
    example: { id: 1 },
    audit: { action: 'exchange.record.fetch.phone', label: '查看收货手机号', target },
  }),
  '/api/exchange/record/cancel': endpoint({
    access: 'admin',
    permission: 'exchangerecord.cancel',
    summary: '取消待发货（或退回的已发货）兑换：通过金币流水退还金币并恢复库存，用户会收到站内消息',
    input: recordId.extend({ note: textField(rules.reason) }),
    output: z.object({ record: exchangeRecord }),
    example: { id: 1, note: '用户退回商品' },
    audit: { action: 'exchange.record.cancel', label: '取消兑换', target },
  }),
  '/api/exchange/record/export': endpoint({
    access: 'admin',
    permission: 'exchangerecord.export',
    summary: '导出筛选后的全部兑换记录为 Excel（供仓库发货：含完整的收货手机号，用户账号手机号仍脱敏；记入操作日志）',
    input: recordFilter.extend(recordSort),
    output: z.unknown(),
    download: 'xlsx',
  }),
};

const carrier = textField(rules.carrier);
const trackingNo = textField(rules.trackingNo);
export const exchangeRecordEndpoints = {
  ...singleEndpoints,
  '/api/exchange/record/ship/batch': batchEndpoint(
    '/api/exchange/record/ship',
    singleEndpoints['/api/exchange/record/ship'],
    {
      summary: '批量发货：同一家快递公司，每条兑换各填一个快递单号（与所选记录一一对应）',
      params: {
        carrier,
        trackingNos: z
          .array(trackingNo, { error: '快递单号列表必须是数组' })
          .meta({ title: '快递单号列表', description: '与 ids 一一对应' }),
      },
      check: { test: (v) => v.trackingNos.length === v.ids.length, error: '快递单号的个数要与所选兑换记录一致' },
      example: { ids: [1], carrier: '顺丰速运', trackingNos: ['SF1234567891'] },
    },
  ),
  '/api/exchange/record/cancel/batch': batchEndpoint(
    '/api/exchange/record/cancel',
    singleEndpoints['/api/exchange/record/cancel'],
    {
      summary: '批量取消（退回）兑换：每条各自退还金币、恢复库存并通知用户，原因相同',
      params: { note: textField(rules.reason) },
      example: { ids: [1], note: '批量退回' },
    },
  ),
};

export default exchangeRecordEndpoints;
type ExchangeRecordEndpoints = typeof exchangeRecordEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends ExchangeRecordEndpoints {}
}
