import { z } from 'zod';
import { clientErrorKinds, clientErrorStatuses } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import { choice, exactTotal, id, isoTime, listExport, order, page, paged, search, size, sortBy, text } from '../fields';
import { clientErrorLimits as limits } from '../scrub';

/**
 * Errors of the console and the home page (前端错误): production builds report their uncaught
 * errors and unhandled rejections here, scrubbed of query strings, tokens and phone-like numbers;
 * operators see them grouped by message, release and the first stack frame.
 */
const target = auditTarget('clienterror', '前端错误', 'clienterror');
const groupId = z.object({ id: id.meta({ title: '错误 ID' }) });
const status = choice('状态', clientErrorStatuses);
const kind = choice('错误类型', clientErrorKinds);

/** One group: every report of the same message, release and first stack frame. */
export const clientErrorGroup = z.object({
  id,
  message: z.string(),
  release: z.string(),
  /** The first stack frame (`file:line:column`), empty when the report had none. */
  frame: z.string(),
  kind,
  /** Reports in the group (a client may fold repeats of one error into one report). */
  count: z.number().int(),
  firstSeenAt: isoTime,
  lastSeenAt: isoTime,
  /** The page of the latest report (path only). */
  lastPath: z.string(),
  status,
  resolvedAt: isoTime.nullable(),
  /** The operator who marked it handled: nickname and masked phone. */
  resolvedBy: z.string().nullable(),
});

/** One kept report of a group (the latest few). */
export const clientErrorSample = z.object({
  id,
  kind,
  stack: z.string(),
  path: z.string(),
  userAgent: z.string(),
  /** The user agent read as browser and system, e.g. "Chrome 120 · Windows 10". */
  device: z.string(),
  repeats: z.number().int(),
  createdAt: isoTime,
});

const clienterrorPage = endpoint({
  access: 'admin',
  permission: 'clienterror.read',
  summary: '分页查询前端错误（按错误信息、版本和首个调用位置归组；状态、错误信息搜索）',
  input: z.object({
    page,
    size,
    exactTotal,
    status: status.optional(),
    release: text('版本', 1, limits.release).optional(),
    search,
    sort: sortBy(['lastSeenAt', 'count', 'firstSeenAt']),
    order,
  }),
  output: paged(clientErrorGroup),
  example: { status: 'open' },
});

export const clientErrorEndpoints = {
  '/api/clienterror/report': endpoint({
    access: 'public',
    summary: '浏览器上报未捕获的前端错误（仅生产构建；不含个人信息；每个 IP 限频，超出时不写入）',
    input: z.object({
      kind,
      message: text('错误信息', 1, limits.message),
      stack: text('调用栈', 0, limits.stack).default(''),
      path: text('页面路径', 1, limits.path),
      release: text('版本', 1, limits.release),
      userAgent: text('浏览器标识', 0, limits.userAgent).default(''),
      repeats: z
        .number({ error: '重复次数必须是整数' })
        .int({ error: '重复次数必须是整数' })
        .min(1, { error: '重复次数至少为 1' })
        .max(limits.repeats, { error: `重复次数最多为 ${limits.repeats}` })
        .default(1)
        .meta({ title: '重复次数' }),
    }),
    output: z.null(),
    example: {
      kind: 'error',
      // Firefox's words (Chrome's stack frames read "    at Ft (https://…:12:3456)").
      message: 'can’t access property "map", list is undefined',
      stack:
        'Ft@https://appdesk.example.com/assets/index-B1x2c3d4.js:12:3456\n@https://appdesk.example.com/assets/index-B1x2c3d4.js:1:99',
      path: '/admin/admin/users',
      release: '1a2b3c4d5e6f',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    },
  }),
  '/api/clienterror/fetch/page': clienterrorPage,
  '/api/clienterror/export': listExport(clienterrorPage, '前端错误'),
  '/api/clienterror/fetch/detail': endpoint({
    access: 'admin',
    permission: 'clienterror.read',
    summary: '读取一组前端错误及最近几次上报的调用栈',
    input: groupId,
    output: z.object({ group: clientErrorGroup, samples: z.array(clientErrorSample) }),
    example: { id: 1 },
  }),
  '/api/clienterror/resolve': endpoint({
    access: 'admin',
    permission: 'clienterror.resolve',
    summary: '把一组前端错误标记为已处理（再次出现时自动恢复为未处理）',
    input: groupId,
    output: z.object({ group: clientErrorGroup }),
    example: { id: 1 },
    audit: { action: 'clienterror.resolve', label: '标记前端错误已处理', target },
  }),
};

export default clientErrorEndpoints;
type ClientErrorEndpoints = typeof clientErrorEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends ClientErrorEndpoints {}
}
