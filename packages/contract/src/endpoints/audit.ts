import { z } from 'zod';
import { endpoint } from '../endpoint';
import { id, isoTime, order, page, paged, size, text, timeRange } from '../fields';

export const auditEntry = z.object({
  id,
  actorId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
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

export const auditEndpoints = {
  '/api/audit/fetch/page': endpoint({
    access: 'admin',
    summary: '分页查询操作日志（按操作人、类型、时间筛选）',
    input: auditFilter.extend({ page, size, order }),
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
