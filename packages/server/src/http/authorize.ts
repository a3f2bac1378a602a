import type { EndpointDef } from '@appdesk/contract';
import { permissionLabel } from '@appdesk/contract/permissions';
import type { FastifyRequest } from 'fastify';
import { allows, grantsOf } from '../core/grants';
import { lookupSession, markConsoleSession } from '../core/sessions';
import type { Services } from './context';
import { fail } from './errors';
import { noteWho } from './request-log';

/** The session token a call presents (header `token`, as the spec's clients send it). */
export function tokenOf(request: FastifyRequest): string {
  const header = request.headers.token;
  return typeof header === 'string' ? header : '';
}

/**
 * Who may make this call: the session behind its token (none for public endpoints), not blocked,
 * with a password of its own; for admin calls an operator holding the endpoint's permission
 * (permissions.ts; a hidden button is never the check), past the features' gates (features/*\/gate.ts).
 */
export async function authorize(def: EndpointDef, request: FastifyRequest, services: Services) {
  const access = def.access;
  if (access === 'public') return { user: null, sessionId: null, grants: null };
  const token = tokenOf(request);
  if (!token) throw fail.unauthenticated();
  const found = await lookupSession(services.db, token, services.config.consoleIdleMs);
  if (found.state === 'none') throw fail.unauthenticated('登录状态无效，请重新登录');
  if (found.state === 'expired') throw fail.expired(found.message);
  noteWho(request, { userId: found.user.id });
  if (found.user.status === 'blocked') throw fail.forbidden('账号已被封禁');
  // A password someone else chose (生成账号, an operator's reset) must be changed before anything else.
  if (found.user.must_change_password === 1 && !def.openDuringPasswordChange) throw fail.passwordChangeRequired();
  if (access !== 'admin') return { user: found.user, sessionId: found.sessionId, grants: null };
  if (!found.user.is_admin) throw fail.forbidden('需要管理员权限');
  await markConsoleSession(services.db, found, services.config.consoleIdleMs);
  // The contract names what each admin call needs (permissions.ts); a hidden button is never the check.
  const grants = await grantsOf(services.db, found.user.id);
  if (!allows(grants, def.permission)) {
    throw fail.denied(`没有「${permissionLabel(def.permission ?? '')}」的权限，请联系超级管理员`, 'permission');
  }
  for (const gate of services.adminGates) await gate(services.db, found.user, grants);
  return { user: found.user, sessionId: found.sessionId, grants };
}
