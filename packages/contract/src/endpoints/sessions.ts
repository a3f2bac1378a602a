import { z } from 'zod';
import { auditTarget, endpoint } from '../endpoint';
import { appCode, empty, exactTotal, id, isoTime, listExport, page, paged, phone, size } from '../fields';

/**
 * Sessions (登录会话): an account's own live sessions, which it may sign out one by one (个人中心),
 * and every live session across accounts for operators (在线用户), who may end any (强制下线).
 */
const target = auditTarget('session', '登录会话', 'online');
const sessionId = z.object({ id: id.meta({ title: '会话 ID' }) });

/** One of the signed-in account's own sessions; `current` is the one making the call. */
export const ownSession = z.object({
  id,
  app: appCode.meta({ title: '应用', description: '会话登录的应用' }),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  device: z.string().nullable().meta({ title: '设备', description: '由 User-Agent 读出，如 Chrome 120 · Windows 10' }),
  createdAt: isoTime,
  lastUsedAt: isoTime,
  current: z.boolean(),
});

/** A live session as operators see it: whose (phone masked), from where, last active when. */
export const liveSession = z.object({
  id,
  userId: id,
  phone: z.string(),
  name: z.string(),
  isAdmin: z.boolean(),
  app: appCode.meta({ title: '应用', description: '会话登录的应用' }),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  device: z.string().nullable().meta({ title: '设备', description: '由 User-Agent 读出，如 Chrome 120 · Windows 10' }),
  createdAt: isoTime,
  lastUsedAt: isoTime,
  expiresAt: isoTime,
});

export const liveSessionFilter = z.object({
  phone: phone.optional(),
  userId: id.optional().meta({ title: '用户 ID' }),
});

const sessionsPage = endpoint({
  access: 'admin',
  permission: 'online.read',
  summary: '在线用户：全部账号的有效登录会话（按手机号或用户 ID 筛选，最近活跃在前）',
  input: liveSessionFilter.extend({ page, size, exactTotal }),
  output: paged(liveSession),
  example: { phone: '13800000000' },
});

export const sessionEndpoints = {
  '/api/sessions/fetch/mine': endpoint({
    access: 'user',
    summary: '自己的全部登录会话（当前会话标出）',
    input: empty,
    output: z.object({ list: z.array(ownSession) }),
  }),
  '/api/sessions/revoke/mine': endpoint({
    access: 'user',
    summary: '下线自己的一个登录会话（当前会话请用退出登录）',
    input: sessionId,
    output: z.null(),
    example: { id: 1 },
  }),
  '/api/sessions/fetch/page': sessionsPage,
  '/api/sessions/export': listExport(sessionsPage, '在线会话'),
  '/api/sessions/revoke': endpoint({
    access: 'admin',
    permission: 'online.revoke',
    summary: '强制下线：立即吊销一个登录会话',
    input: sessionId,
    output: z.null(),
    example: { id: 2 },
    audit: { action: 'sessions.revoke', label: '强制下线', target },
  }),
};

export default sessionEndpoints;
type SessionEndpoints = typeof sessionEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends SessionEndpoints {}
}
