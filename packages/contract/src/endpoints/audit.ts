import { z } from 'zod';
import { endpoint } from '../endpoint';
import { empty, exactTotal, id, isoTime, order, page, paged, size, text, timeRange } from '../fields';

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
