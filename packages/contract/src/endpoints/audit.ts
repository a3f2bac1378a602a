import { z } from 'zod';
import { channels, platforms } from '../constants';
import { type AuditDecl, type AuditField, auditTarget, endpoint } from '../endpoint';
import { empty, exactTotal, id, isoTime, order, page, paged, phone, size, text, timeRange } from '../fields';
import { userTarget } from './users';

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
  /**
   * Where the console shows the record (its target's declared page): the page key and, when that
   * page opens the record itself from its URL, the query that does (null: no page shows it).
   */
  targetLink: z.object({ page: z.string(), query: z.string().nullable() }).nullable(),
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
 * How the log names and reads the fields many features' handlers put in before/after, declared
 * once. A target's own declaration (`auditTarget(type, label, page, fields)`) comes first; then these;
 * then the titles and code words (`choice`) of the endpoints' schemas.
 */
export const auditSharedFields: Record<string, AuditField> = {
  id: { label: 'ID' },
  ids: { label: 'ID 列表' },
  status: { label: '状态' },
  note: { label: '备注' },
  reason: { label: '原因' },
  reply: { label: '回复内容' },
  days: { label: '天数' },
  phone: { label: '手机号' },
  nickname: { label: '昵称' },
  email: { label: '邮箱' },
  avatar: { label: '头像', format: 'file' },
  name: { label: '名称' },
  title: { label: '标题' },
  key: { label: '键' },
  value: { label: '值' },
  enabled: { label: '启用' },
  published: { label: '已发布' },
  blocked: { label: '已屏蔽' },
  userId: { label: '用户 ID' },
  carrier: { label: '快递公司' },
  trackingNo: { label: '快递单号' },
  refunded: { label: '退回金币' },
  added: { label: '新增数量' },
  skipped: { label: '跳过数量' },
  stock: { label: '库存' },
  count: { label: '数量' },
  copiedFrom: { label: '复制自' },
  duplicateOf: { label: '重复于' },
  messageSent: { label: '已发站内信' },
  transactionId: { label: '交易号' },
  ip: { label: 'IP' },
  device: { label: '设备' },
  file: { label: '文件' },
  rows: { label: '行数' },
  filter: { label: '筛选条件' },
  personalData: { label: '含个人信息' },
  category: { label: '分类' },
  sort: { label: '排序' },
  price: { label: '价格', format: 'fen' },
  originalPrice: { label: '原价', format: 'fen' },
  fileId: { label: '文件 ID' },
  size: { label: '大小', format: 'bytes' },
  mime: { label: '文件格式', format: 'mime' },
  sha256: { label: 'SHA-256 摘要', format: 'hidden' },
  width: { label: '宽度（像素）' },
  height: { label: '高度（像素）' },
  durationMs: { label: '时长', format: 'duration' },
  app: { label: '应用', apps: true },
  apps: { label: '应用', apps: true },
  channel: { label: '渠道', values: channels },
  channels: { label: '渠道', values: channels },
  platform: { label: '平台', values: platforms },
  authorId: { label: '作者 ID' },
  adminId: { label: '管理员 ID' },
  operator: { label: '操作人 ID' },
  createdAt: { label: '创建时间' },
  updatedAt: { label: '更新时间' },
};

/**
 * Rows the core writes outside an endpoint's declaration: an operator signing in to the console
 * (an app user's sign-in is in the 登录日志 only, which holds every attempt).
 */
export const signInAudit: AuditDecl = {
  action: 'users.login',
  label: '登录后台',
  target: userTarget,
};

/** What an export (`download: 'xlsx'`) records: the file and the filter it was made with. */
export const exportTarget = auditTarget('export', '导出文件', null, { rows: '行数' });

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
    permission: 'audit.read',
    summary: '操作日志中可能出现的全部操作及其中文名称（来自各接口的声明）',
    input: empty,
    output: z.object({ list: z.array(auditAction) }),
  }),
  '/api/audit/fetch/page': endpoint({
    access: 'admin',
    permission: 'audit.read',
    summary: '分页查询操作日志（按操作人、操作人或对象用户的手机号、类型、时间筛选）',
    input: auditFilter.extend({ page, size, exactTotal, ...auditSort }),
    output: paged(auditEntry),
  }),
  '/api/audit/export': endpoint({
    access: 'admin',
    permission: 'audit.export',
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
