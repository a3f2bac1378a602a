import { maskPhone } from '@appdesk/contract/format';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What a request's one log line says beyond method, path and HTTP status (which is 200 for every
 * answered call): the result code, who the caller is, and for sign-ins the phone, masked.
 */
export interface RequestLogInfo {
  code?: number;
  userId?: number;
  /** Always masked (138****8000) before it is kept here. */
  phone?: string;
  /** Bytes of the file the call kept (the metrics count them when the call succeeds). */
  uploadBytes?: number;
}

/**
 * What pino blanks out of any log line, whoever writes it. The request line (below) holds no
 * headers and no body at all; these catch a header or a body that a later log call might pass whole:
 * the session token, cookies, and the plain text of an operator's new password (`plainPassword`,
 * sent beside its digest so the server can check the operator rule, core/operator-password.ts).
 */
export const redactedLogPaths = [
  'req.headers.token',
  'req.headers.cookie',
  'req.headers.authorization',
  'plainPassword',
  '*.plainPassword',
  '*.*.plainPassword',
];

const infos = new WeakMap<FastifyRequest, RequestLogInfo>();

function infoOf(request: FastifyRequest): RequestLogInfo {
  let info = infos.get(request);
  if (!info) {
    info = {};
    infos.set(request, info);
  }
  return info;
}

/** Records the answer's result code for the log line. */
export function noteCode(request: FastifyRequest, code: number): void {
  infoOf(request).code = code;
}

/** What has been noted about the request so far (the metrics read it when it ends). */
export function requestInfo(request: FastifyRequest): RequestLogInfo | undefined {
  return infos.get(request);
}

/** Records the size of the file the call kept. */
export function noteUpload(request: FastifyRequest, bytes: number): void {
  infoOf(request).uploadBytes = bytes;
}

/** Records who the request is about: an account id, and a phone (kept masked only). */
export function noteWho(request: FastifyRequest, who: { userId?: number; phone?: string }): void {
  const info = infoOf(request);
  if (who.userId !== undefined) info.userId = who.userId;
  if (who.phone !== undefined) info.phone = who.phone.length === 11 ? maskPhone(who.phone) : '***';
}

/**
 * The line written when a request ends. Only the path is logged, never the query string (an
 * emailed link carries a token there); headers and bodies are never logged.
 */
const quieterThanInfo = new Set(['warn', 'error', 'fatal', 'silent']);

export function logCompleted(request: FastifyRequest, reply: FastifyReply): void {
  if (quieterThanInfo.has(request.log.level)) return;
  const info = infos.get(request) ?? {};
  request.log.info(
    {
      method: request.method,
      path: request.url.split('?')[0].slice(0, 300),
      statusCode: reply.statusCode,
      ...(info.code !== undefined ? { code: info.code } : {}),
      ...(info.userId !== undefined ? { userId: info.userId } : {}),
      ...(info.phone !== undefined ? { phone: info.phone } : {}),
      ip: request.ip,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    },
    'request completed',
  );
}
