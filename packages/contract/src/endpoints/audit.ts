import { z } from 'zod';
import { endpoint } from '../endpoint';
import { empty, exactTotal, id, isoTime, oneOf, order, page, paged, phone, size, text, timeRange } from '../fields';

export const auditEntry = z.object({
  id,
  actorId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  /** The Chinese label the endpoint that wrote the row declares (the action itself if none does). */
  actionLabel: z.string(),
  targetType: z.string(),
  targetLabel: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  createdAt: isoTime,
});

export const auditFilter = timeRange.extend({
  actorId: id.optional().meta({ title: '操作人 ID' }),
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

/** Why a sign-in attempt ended as it did, with the label the 登录日志 shows. */
export const loginReasons = [
  { value: 'success', label: '登录成功' },
  { value: 'wrong_password', label: '密码错误' },
  { value: 'unknown_phone', label: '手机号未注册' },
  { value: 'locked', label: '失败次数过多，已锁定' },
  { value: 'blocked', label: '账号已封禁' },
  { value: 'phone_taken', label: '注册时手机号已存在（密码不符）' },
] as const;

/** One 登录日志 row: every sign-in attempt, success or not (the phone masked). */
export const loginEntry = z.object({
  id,
  userId: z.number().int().nullable(),
  phone: z.string().meta({ title: '手机号', description: '脱敏（138****8000）' }),
  success: z.boolean(),
  reason: z.string(),
  reasonLabel: z.string(),
  /** The answer's code: 200, 401, 403, 409, 429. */
  code: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: isoTime,
});

export const loginFilter = timeRange.extend({
  result: oneOf('结果', ['all', 'success', 'failure']).default('all'),
  phone: phone.optional(),
});

export const auditEndpoints = {
  '/api/audit/fetch/actions': endpoint({
    access: 'admin',
    summary: '操作日志中可能出现的全部操作及其中文名称（来自各接口的声明）',
    input: empty,
    output: z.object({ list: z.array(auditAction) }),
  }),
  '/api/audit/fetch/page': endpoint({
    access: 'admin',
    summary: '分页查询操作日志（按操作人、类型、时间筛选）',
    input: auditFilter.extend({ page, size, exactTotal, order }),
    output: paged(auditEntry),
  }),
  '/api/audit/fetch/login/page': endpoint({
    access: 'admin',
    summary: '分页查询登录日志（每次登录尝试：结果、原因、地址、设备；按结果、手机号、时间筛选，新的在前）',
    input: loginFilter.extend({ page, size, exactTotal }),
    output: paged(loginEntry),
    example: { result: 'failure', phone: '13800000000' },
  }),
  '/api/audit/export': endpoint({
    access: 'admin',
    summary: '导出筛选后的全部操作日志为 Excel',
    input: auditFilter,
    output: z.unknown(),
    download: 'xlsx',
  }),
};

export default auditEndpoints;
type AuditEndpoints = typeof auditEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends AuditEndpoints {}
}
