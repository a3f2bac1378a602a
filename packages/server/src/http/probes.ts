import { statfs } from 'node:fs/promises';
import { Code } from '@appdesk/contract/codes';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { CONFLICT_MESSAGE } from '../db/conflicts';
import { type Outage, outageLogMessage } from '../db/outage';
import { keepReserve } from '../storage/reserve';
import type { Services } from './context';

/** Below this much free space in the data folder the instance reports itself not ready. */
const MIN_FREE_BYTES = 1024 * 1024;
const PROBE_TIMEOUT_MS = 2000;

const unavailableBody = (message = '服务暂不可用，请稍后重试') => ({
  code: Code.UNAVAILABLE,
  message,
  data: null,
});

/**
 * Answers an outage: code 503 with 服务暂不可用，请稍后重试. API calls keep HTTP 200 (the
 * contract's rule: the code says what happened); `http: 503` is for what runs outside an
 * endpoint. The log names a full disk as 磁盘空间不足.
 */
export function replyUnavailable(
  reply: FastifyReply,
  log: FastifyBaseLogger,
  outage: Outage,
  error: unknown,
  http: 200 | 503 = 503,
) {
  const reason = (error as { message?: string } | null)?.message;
  const code = (error as { code?: string } | null)?.code;
  if (outage === 'disk-full') log.error({ reason, code }, outageLogMessage(outage));
  else log.warn({ reason, code }, outageLogMessage(outage));
  return reply.status(http).header('Retry-After', '5').send(unavailableBody());
}

/**
 * Answers a lock conflict that outlived its retries (db/conflicts.ts): code 503 and Retry-After 1,
 * logged at warn (the client resends; nothing was written).
 */
export function replyLockConflict(reply: FastifyReply, log: FastifyBaseLogger, error: unknown, http: 200 | 503 = 503) {
  log.warn({ reason: (error as { message?: string } | null)?.message }, '数据库锁冲突：重试后仍未成功');
  return reply.status(http).header('Retry-After', '1').send(unavailableBody(CONFLICT_MESSAGE));
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('connection timeout (probe)')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /healthz`: the process is alive (always 200 while it can answer).
 * `GET /readyz`: it can serve: the database and the file storage answer and the data folder has room; otherwise HTTP
 * 503 with code 503, so a load balancer stops sending traffic until it recovers by itself.
 */
export function registerProbes(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ code: Code.OK, message: '成功', data: { status: 'alive' } }));
  app.get('/readyz', async (request, reply) => {
    try {
      await withTimeout(sql`select 1`.execute(services.db), PROBE_TIMEOUT_MS);
    } catch (error) {
      request.log.warn({ reason: (error as Error).message }, '就绪检查：数据库暂不可用');
      return reply.status(503).header('Retry-After', '5').send(unavailableBody());
    }
    try {
      await withTimeout(services.storage.check(), PROBE_TIMEOUT_MS);
    } catch (error) {
      request.log.warn({ reason: (error as Error).message }, '就绪检查：文件存储暂不可用');
      return reply.status(503).header('Retry-After', '5').send(unavailableBody());
    }
    // The space kept for deletes comes back once there is room for it (storage/reserve.ts).
    void keepReserve(services.config.dataDir);
    const disk = await statfs(services.config.dataDir).catch(() => undefined);
    const free = disk ? disk.bavail * disk.bsize : undefined;
    if (free !== undefined && free < MIN_FREE_BYTES) {
      request.log.error({ free }, outageLogMessage('disk-full'));
      return reply.status(503).header('Retry-After', '5').send(unavailableBody('磁盘空间不足，服务暂不可用'));
    }
    return {
      code: Code.OK,
      message: '成功',
      data: { status: 'ready', database: 'ok', storage: 'ok', freeBytes: free ?? null },
    };
  });
}
