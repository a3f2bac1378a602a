import { z } from 'zod';
import {
  clientErrorStatuses,
  exchangeStatuses,
  feedbackStatuses,
  fileKinds,
  orderStatuses,
  payMethods,
  threadStatuses,
  versionStatuses,
} from '../constants';
import { type AuditDecl, auditTarget, endpoint } from '../endpoint';
import { empty, exactTotal, id, isoTime, order, page, paged, phone, size, text, timeRange } from '../fields';
import { userStatuses } from './users';

/** One field of a change, as the operation log shows it: its Chinese name and both values in words. */
export const auditChange = z.object({
  field: z.string(),
  label: z.string().meta({ title: '字段' }),
  /** The value before, as text (null: the field was not there, e.g. on creation). */
  before: z.string().nullable(),
  after: z.string().nullable(),
});

export const auditEntry = z.object({
  id,
  actorId: z.number().int().nullable(),
  /** The operator's nickname, or the masked phone when there is none. */
  actorName: z.string().nullable(),
  /** The operator's phone, masked (138****8000). */
  actorPhone: z.string().nullable(),
  action: z.string(),
  /** The Chinese label the endpoint that wrote the row declares (the action itself if none does). */
  actionLabel: z.string(),
  targetType: z.string(),
  targetLabel: z.string(),
  targetId: z.string().nullable(),
  /** Who the target is, for a user: nickname · masked phone (null for other records). */
  targetName: z.string().nullable(),
  /** before/after field by field, with the fields' Chinese names (empty when there is nothing to compare). */
  changes: z.array(auditChange),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  createdAt: isoTime,
});

export const auditFilter = timeRange.extend({
  actorId: id.optional().meta({ title: '操作人 ID' }),
  actorPhone: phone.optional().meta({ title: '操作人手机号' }),
  /** Rows about this user (the target), by the user's whole phone. */
  userPhone: phone.optional().meta({ title: '用户手机号' }),
  /** An action name, or its domain prefix (e.g. `users` matches every `users.*`). */
  action: text('操作类型', 0, 60).optional(),
});

/** An action the operation log can hold, as the contract declares it. */
export const auditAction = z.object({
  action: z.string(),
  label: z.string(),
  targetType: z.string(),
  targetLabel: z.string(),
});

/**
 * The Chinese names of the fields handlers put in before/after, declared once for every feature.
 * These come first (they read better in a log); any other field is named by the title its
 * endpoint's input or output gives it (`meta({ title })`).
 */
export const auditFieldNames: Record<string, string> = {
  id: 'ID',
  ids: 'ID 列表',
  status: '状态',
  note: '备注',
  reason: '原因',
  reply: '回复内容',
  coins: '金币余额',
  delta: '金币变动',
  days: '天数',
  vipExpiresAt: '会员到期时间',
  isAdmin: '管理员',
  phone: '手机号',
  nickname: '昵称',
  email: '邮箱',
  avatar: '头像',
  name: '名称',
  title: '标题',
  key: '键',
  value: '值',
  enabled: '启用',
  published: '已发布',
  blocked: '已屏蔽',
  userId: '用户 ID',
  carrier: '快递公司',
  trackingNo: '快递单号',
  refunded: '退回金币',
  added: '新增数量',
  skipped: '跳过数量',
  stock: '库存',
  copiedFrom: '复制自',
  duplicateOf: '重复于',
  messageSent: '已发站内信',
  transactionId: '交易号',
  ip: 'IP',
  device: '设备',
  file: '文件',
  rows: '行数',
  filter: '筛选条件',
  personalData: '含个人信息',
  channels: '渠道',
  category: '分类',
  sort: '排序',
  price: '价格（分）',
  fileId: '文件 ID',
  url: '地址',
  size: '大小（字节）',
  createdAt: '创建时间',
  updatedAt: '更新时间',
};

/** The Chinese words for a field's stored values, by target type then field. */
export const auditValueLabels: Record<string, Record<string, readonly { value: string; label: string }[]>> = {
  user: { status: userStatuses },
  order: { status: orderStatuses, payMethod: payMethods },
  feedback: { status: feedbackStatuses },
  feedbackv2: { status: threadStatuses },
  exchange_record: { status: exchangeStatuses },
  version: { status: versionStatuses },
  file: { kind: fileKinds },
  clienterror: { status: clientErrorStatuses },
};

/**
 * Rows the core writes outside an endpoint's declaration: an operator signing in to the console
 * (an app user's sign-in is in the 登录日志 only, which holds every attempt).
 */
export const signInAudit: AuditDecl = {
  action: 'users.login',
  label: '登录后台',
  target: auditTarget('user', '用户'),
};

/** What an export (`download: 'xlsx'`) records: the file and the filter it was made with. */
export const exportTarget = auditTarget('export', '导出文件');

/**
 * The operation-log declaration of an export endpoint, from its path and summary: `/api/coin/export`
 * with 「导出筛选后的全部金币流水为 Excel」 is `coin.export`, 导出金币流水.
 */
export function exportAudit(path: string, summary: string): AuditDecl {
  const what = /^导出(?:筛选后的)?(?:全部)?(.+?)为 ?Excel/.exec(summary)?.[1];
  return {
    action: path.replace(/^\/api\//, '').replaceAll('/', '.'),
    label: what ? `导出${what}` : '导出 Excel',
    target: exportTarget,
  };
}

/** The list's order, which its export keeps. */
const auditSort = { order };

export const auditEndpoints = {
  '/api/audit/fetch/actions': endpoint({
    access: 'admin',
    summary: '操作日志中可能出现的全部操作及其中文名称（来自各接口的声明）',
    input: empty,
    output: z.object({ list: z.array(auditAction) }),
  }),
  '/api/audit/fetch/page': endpoint({
    access: 'admin',
    summary: '分页查询操作日志（按操作人、操作人或对象用户的手机号、类型、时间筛选）',
    input: auditFilter.extend({ page, size, exactTotal, ...auditSort }),
    output: paged(auditEntry),
  }),
  '/api/audit/export': endpoint({
    access: 'admin',
    summary: '导出筛选后的全部操作日志为 Excel',
    input: auditFilter.extend(auditSort),
    output: z.unknown(),
    download: 'xlsx',
  }),
};

export default auditEndpoints;
type AuditEndpoints = typeof auditEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends AuditEndpoints {}
}
