/**
 * Failures that are not the request's fault and pass by themselves: the database is restarting
 * or unreachable, SQLite stayed locked past its busy timeout, or the disk is full. The server
 * answers them with code 503 (服务暂不可用，请稍后重试) instead of 500, never retries a write
 * by itself (a write that may have been applied is the client's to resend, safely with an
 * Idempotency-Key), and serves again as soon as the cause is gone: the pools open fresh
 * connections on demand.
 */
export type Outage = 'database' | 'disk-full';

/** PostgreSQL SQLSTATEs of a server that is going away, starting up, out of connections or out of disk. */
const pgUnavailable = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '57P05', // idle_session_timeout
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007',
  '53300', // too_many_connections
  '53200', // out_of_memory
  '58030', // io_error
]);
const pgDiskFull = new Set(['53100']);
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const fsDiskFull = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const connectionMessages =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|SQLite worker exited|database is locked/i;

function classifyOne(error: { code?: unknown; message?: unknown }): Outage | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  if (fsDiskFull.has(code) || pgDiskFull.has(code) || /database or disk is full|No space left/i.test(message)) {
    return 'disk-full';
  }
  if (pgUnavailable.has(code) || socketCodes.has(code)) return 'database';
  // SQLITE_BUSY (locked past busy_timeout) and its variants; I/O errors of the database file.
  if (/^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|PROTOCOL)/.test(code)) return 'database';
  if (connectionMessages.test(message)) return 'database';
  return undefined;
}

/** Whether an error (or one it wraps) is an outage, and which. */
export function classifyOutage(error: unknown): Outage | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const found = classifyOne(current as { code?: unknown; message?: unknown });
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The log line of an outage: "磁盘空间不足" for a full disk, so operators find it. */
export function outageLogMessage(outage: Outage): string {
  return outage === 'disk-full' ? '磁盘空间不足：写入失败，释放空间后自动恢复' : '数据库暂不可用：等待其恢复';
}
