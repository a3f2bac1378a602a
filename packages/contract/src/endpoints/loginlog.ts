import { z } from 'zod';
import { loginResults } from '../constants';
import { endpoint } from '../endpoint';
import { choice, exactTotal, id, isoTime, page, paged, phone, size, timeRange } from '../fields';

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
  /** The user agent as people read it ("Chrome 120 · Windows 10"); null when there is none. */
  device: z.string().nullable().meta({ title: '设备' }),
  createdAt: isoTime,
});

export const loginFilter = timeRange.extend({
  result: choice('结果', loginResults).default('all'),
  phone: phone.optional(),
});

export const loginlogEndpoints = {
  '/api/loginlog/fetch/page': endpoint({
    access: 'admin',
    permission: 'loginlog.read',
    summary: '分页查询登录日志（每次登录尝试：结果、原因、地址、设备；按结果、手机号、时间筛选，新的在前）',
    input: loginFilter.extend({ page, size, exactTotal }),
    output: paged(loginEntry),
    example: { result: 'failure', phone: '13800000000' },
  }),
  '/api/loginlog/export': endpoint({
    access: 'admin',
    permission: 'loginlog.export',
    summary: '导出筛选后的全部登录日志为 Excel（手机号脱敏）',
    input: loginFilter,
    output: z.unknown(),
    download: 'xlsx',
  }),
};

export default loginlogEndpoints;
type LoginlogEndpoints = typeof loginlogEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends LoginlogEndpoints {}
}
