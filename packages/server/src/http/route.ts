import {
  type ApiOutput,
  type ApiPath,
  type AuditDecl,
  type EndpointDef,
  type Endpoints,
  endpoints,
} from '@appdesk/contract';
import { Code, type CodeValue, codeMessage } from '@appdesk/contract/codes';
import { exportAudit } from '@appdesk/contract/endpoints/audit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { writeAudit } from '../core/audit';
import { hashToken, lookupSession, type SessionLookup, type SessionUser } from '../core/sessions';
import { isLockConflict, retryOnConflict } from '../db/conflicts';
import { classifyOutage } from '../db/outage';
import { shortTransaction } from '../db/sqlite-inline';
import { settlePending } from '../storage/pending';
import { keepReserve, releaseReserve } from '../storage/reserve';
import { checkApp } from './app-check';
import { authorize, tokenOf } from './authorize';
import type { AuditRecord, RequestContext, Services } from './context';
import { ApiError, fail } from './errors';
import { type ExportTable, sendXlsx } from './export';
import { earlierAnswer, holdsSecret, idempotencyOf, keepAnswer, reserve, WITHHELD } from './idempotency';
import { replyLockConflict, replyUnavailable } from './probes';
import { noteCode, noteUpload, noteWho } from './request-log';
import {
  chargeUpload,
  discardUpload,
  newClaimToken,
  readUpload,
  releaseFiles,
  type UploadedFile,
  uploadKeys,
} from './uploads';
import { describeIssue } from './validation';

type Def<P extends ApiPath> = Endpoints[P] & EndpointDef;

/** The context a handler gets: `user` is non-null unless the endpoint is public. */
export type ContextFor<P extends ApiPath> = RequestContext<Def<P>['access'] extends 'public' ? null : SessionUser>;

export interface RouteDef<P extends ApiPath> {
  /**
   * Run the handler (and its audit row) in one database transaction. `'short'`: a transaction of
   * point reads and writes by key only (an app's redemption), which SQLite runs on the main
   * thread's writer connection without a thread hand-over per statement (db/sqlite-inline.ts).
   */
  transaction?: boolean | 'short';
  /**
   * An idempotent endpoint whose answer holds a secret (a session token) or that takes a password:
   * its stored answer keeps none (only a marker), and a replay answers with this instead (for a
   * sign-up: a new sign-in, which checks the password again). Required for such endpoints.
   */
  replay?(input: z.output<Def<P>['input']>, ctx: ContextFor<P>): Promise<ApiOutput<P>>;
  /** Chinese success message for the envelope (default 成功). */
  message?: string;
  /** Download endpoints (`download: 'xlsx'` in the contract) answer an ExportTable instead. */
  handler(
    input: z.output<Def<P>['input']>,
    ctx: ContextFor<P>,
  ): Promise<Def<P> extends { download: 'xlsx' } ? ExportTable : ApiOutput<P>>;
}

export type RouteTable = { [P in ApiPath]?: RouteDef<P> };

/** Declares a feature's handlers; the contract decides access, input, output and what is audited. */
export function defineRoutes<T extends RouteTable>(routes: T): T {
  return routes;
}

export function envelope(code: CodeValue, message?: string, data?: unknown) {
  return { code, message: message ?? codeMessage[code], data: data ?? null };
}

/** Registers every endpoint of the contract; refuses to start if one has no handler or two have one. */
export function registerEndpoints(app: FastifyInstance, services: Services, tables: RouteTable[]): void {
  const routes: RouteTable = {};
  for (const table of tables) {
    for (const path of Object.keys(table) as ApiPath[]) {
      if (!(path in endpoints)) throw new Error(`Handler for ${path}, which the contract does not declare`);
      if (routes[path]) throw new Error(`Two handlers for ${path}`);
      Object.assign(routes, { [path]: table[path] });
    }
  }
  for (const path of Object.keys(endpoints) as ApiPath[]) {
    const route = routes[path] as RouteDef<ApiPath> | undefined;
    if (!route) throw new Error(`No handler for ${path}`);
    const def = endpoints[path] as EndpointDef;
    if (def.idempotent && !route.replay && holdsSecret(def)) {
      throw new Error(`${path} takes or answers a secret: an idempotent endpoint must declare replay`);
    }
    const run = (request: FastifyRequest, reply: FastifyReply) =>
      runEndpoint(path, def, route, request, reply, services);
    app.post(path, async (request, reply) => {
      try {
        const data = await (path.endsWith('/remove') ? runDelete(run, request, reply, services) : run(request, reply));
        noteCode(request, Code.OK);
        if (def.download === 'xlsx') return sendXlsx(reply, data as ExportTable<unknown>, request.log);
        return sendOk(reply, def, route, data);
      } catch (error) {
        if (error instanceof ApiError) {
          noteCode(request, error.code);
          return reply.send(envelope(error.code, error.message, error.data));
        }
        if (clientWentAway(request)) {
          // An abandoned upload: the socket error is the client's, not a database outage.
          request.log.info({ reason: (error as Error).message }, '客户端中断了请求');
          noteCode(request, Code.BAD_INPUT);
          return reply.send(envelope(Code.BAD_INPUT, '请求未传完：客户端已断开'));
        }
        if (isLockConflict(error)) {
          noteCode(request, Code.UNAVAILABLE);
          return replyLockConflict(reply, request.log, error, 200);
        }
        const outage = classifyOutage(error);
        if (outage) {
          noteCode(request, Code.UNAVAILABLE);
          return replyUnavailable(reply, request.log, outage, error, 200);
        }
        throw error;
      }
    });
  }
}

/**
 * A delete that failed for want of disk space frees the space kept for deletes (storage/reserve.ts)
 * and runs again (its transaction was rolled back), so files can be removed from a full disk.
 */
async function runDelete(
  run: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
): Promise<unknown> {
  try {
    return await run(request, reply);
  } catch (error) {
    if (classifyOutage(error) !== 'disk-full' || !(await releaseReserve(services.config.dataDir))) throw error;
    request.log.warn('磁盘空间不足：已动用为删除预留的空间');
    const data = await run(request, reply);
    void keepReserve(services.config.dataDir);
    return data;
  }
}

/** The client closed its connection before its request body arrived whole. */
function clientWentAway(request: FastifyRequest): boolean {
  return !request.raw.complete && request.raw.socket.destroyed;
}

function sendOk(reply: FastifyReply, def: EndpointDef, route: RouteDef<ApiPath>, data: unknown) {
  const message = route.message ?? codeMessage[Code.OK];
  if (def.placement === 'root') return reply.send({ code: Code.OK, message, ...(data as object) });
  return reply.send({ code: Code.OK, message, data: data ?? null });
}

async function runEndpoint(
  path: ApiPath,
  def: EndpointDef,
  route: RouteDef<ApiPath>,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
): Promise<unknown> {
  const { user, sessionId, grants } = await authorize(def, request, services);
  let presented: Promise<SessionLookup> | undefined;

  let body: unknown = request.body ?? {};
  let file: UploadedFile | null = null;
  // Who owns an upload: the caller, also a signed-in one on a public endpoint (looked up before any transaction).
  let uploader = user;
  if (def.upload) {
    if (!user && def.access === 'public') {
      presented = lookupSession(services.db, tokenOf(request), services.config.consoleIdleMs);
      const found = await presented;
      if (found.state === 'ok' && found.user.status !== 'blocked') uploader = found.user;
    }
    const upload = await readUpload(request, def.upload, services, uploader);
    body = upload.fields;
    file = upload.file;
    noteUpload(request, file.size);
  } else if (request.isMultipart()) {
    throw fail.badInput('此接口只接受 JSON 请求体');
  }

  try {
    const parsed = def.input.safeParse(body);
    if (!parsed.success) throw fail.badInput(describeIssue(def.input, body, parsed.error));
    await checkApp(def, parsed.data, services, grants);

    let recorded = 0;
    const released: string[] = [];
    const committed: (() => void)[] = [];
    const redoAfterRollback: ((db: Services['db']) => Promise<unknown>)[] = [];
    // A transaction is run again whole on a PostgreSQL lock conflict (db/conflicts.ts): what its
    // failed attempt counted and set aside is forgotten first.
    const retried = <T>(transaction: () => Promise<T>): Promise<T> => {
      const before = [recorded, released.length, committed.length, presented, redoAfterRollback.length] as const;
      return retryOnConflict(() => {
        recorded = before[0];
        released.length = before[1];
        committed.length = before[2];
        // A session looked up inside the failed attempt is looked up (and touched) again.
        presented = before[3];
        redoAfterRollback.length = before[4];
        return transaction();
      });
    };
    // The services are named one by one: spreading `services` here cost a fifth of a small call's time.
    const makeCtx = (db: Services['db']): RequestContext => ({
      config: services.config,
      dialect: services.dialect,
      storage: services.storage,
      noticeSources: services.noticeSources,
      fileReferences: services.fileReferences,
      apps: services.apps,
      onHandlerRun: services.onHandlerRun,
      db,
      user,
      sessionId,
      grants,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      log: request.log,
      file,
      presentedSession: () => {
        if (user && sessionId !== null) return Promise.resolve({ state: 'ok', sessionId, user });
        // Through this context's database: inside the call's transaction the lookup's writes (the
        // once-a-minute touch, an expired session's removal) are part of it. On another connection
        // they would wait for the writer's turn the transaction holds, i.e. for themselves (SQLite).
        presented ??= lookupSession(db, tokenOf(request), services.config.consoleIdleMs);
        return presented;
      },
      identify: (who) => noteWho(request, who),
      audit: async (record) => {
        recorded += 1;
        await writeAudit(db, auditRow(path, def.audit, record, user?.id ?? null, request.ip));
      },
      releaseFile: (url) => {
        if (url) released.push(url);
      },
      afterCommit: (work) => {
        committed.push(work);
      },
      survivesFailure: async (work) => {
        const value = await work(db);
        if (db.isTransaction) redoAfterRollback.push(work);
        return value;
      },
      // Already inside one (the route declared `transaction`): reuse it rather than deadlock.
      inTransaction: (work) =>
        db.isTransaction
          ? work(makeCtx(db))
          : retried(() => services.db.transaction().execute((trx) => work(makeCtx(trx)))),
    });
    const run = async (db: Services['db']) => {
      // Counted in the call's transaction: a call that fails gives its quota back.
      if (file) await chargeUpload(db, services.config, uploader, request.ip, file.size);
      services.onHandlerRun?.(path);
      // The upload's row first, so the handler can answer with (and refer to) its id.
      if (file) {
        // A public endpoint's upload also answers a claim token, for a caller not signed in to attach it.
        if (def.access === 'public') file.claimToken = newClaimToken();
        file.id = await recordFile(db, file, uploader?.id);
        // No longer pending: from this commit on the `files` row accounts for the objects.
        await settlePending(db, uploadKeys(file));
      }
      const result = await route.handler(parsed.data as never, makeCtx(db) as never);
      // Every export is an operator's act worth knowing: which file, with which filter.
      if (def.download)
        await writeAudit(db, exportAuditRow(path, def, result as ExportTable, parsed.data, user, request.ip));
      // A declared write records exactly one row; a slip here would leave the log silently incomplete.
      // A batch records one row per record that succeeded (http/batch.ts).
      const rows = def.batchOf ? (result as { succeeded: number }).succeeded : 1;
      if (def.audit && recorded !== rows)
        throw new Error(`${path} recorded ${recorded} operation-log rows, not ${rows}`);
      return result;
    };
    // An upload's transaction waits on the storage, never short.
    const begin = () =>
      route.transaction === 'short' && !file ? shortTransaction(services.db) : services.db.transaction();
    const execute = async (): Promise<unknown> => {
      const idempotency = def.idempotent ? idempotencyOf(request, path, user?.id ?? null, parsed.data) : undefined;
      if (idempotency) {
        const replay = async (answer: { data: unknown }) => {
          reply.header('Idempotent-Replayed', 'true');
          if (file) await discardUpload(services, file);
          if (route.replay) return route.replay(parsed.data as never, makeCtx(services.db) as never);
          return answer.data;
        };
        const earlier = await earlierAnswer(services.db, idempotency);
        if (earlier) return replay(earlier);
        // A retried attempt reserves the key again: the failed one's reservation was rolled back.
        const outcome = await retried(() =>
          begin().execute(async (trx) => {
            const claim = await reserve(trx, idempotency);
            if ('replay' in claim) return claim;
            const result = await run(trx);
            await keepAnswer(trx, claim.reserved, route.replay ? WITHHELD : result);
            return { result };
          }),
        );
        return 'replay' in outcome ? replay(outcome.replay) : outcome.result;
      }
      return route.transaction || file ? await retried(() => begin().execute(run)) : await run(services.db);
    };
    let result: unknown;
    try {
      result = await execute();
    } catch (error) {
      // The call's transaction rolled back: what must outlive a failure is written again, on its own.
      for (const work of redoAfterRollback) {
        await work(services.db).catch((redoError: unknown) => request.log.warn({ err: redoError }, '失败后补记未成功'));
      }
      throw error;
    }
    for (const work of committed) work();
    // Replaced files go once the change is committed, if nothing else refers to them.
    if (released.length) await releaseFiles(services, released, request.log);
    return result;
  } catch (error) {
    // Nothing half-written: a failed call leaves no stored file behind.
    if (file) await discardUpload(services, file);
    throw error;
  }
}

function auditRow(path: string, decl: AuditDecl | undefined, record: AuditRecord, userId: number | null, ip: string) {
  if (!decl) throw new Error(`${path} records an operation-log row but its contract entry declares no audit`);
  return {
    ...record,
    action: decl.action,
    targetType: decl.target.type,
    actorId: record.actorId ?? userId,
    ip,
  };
}

function exportAuditRow(
  path: string,
  def: EndpointDef,
  table: ExportTable,
  filter: unknown,
  user: SessionUser | null,
  ip: string,
) {
  const decl = exportAudit(path, def.summary);
  return {
    actorId: user?.id ?? null,
    action: decl.action,
    targetType: decl.target.type,
    after: {
      file: `${table.filename}.xlsx`,
      filter,
      ...(table.personalData ? { personalData: table.personalData } : {}),
    },
    ip,
  };
}

/** Every kept upload gets a row, so the upload list knows who sent what (and who may attach it). */
async function recordFile(db: Services['db'], file: UploadedFile, uploaderId: number | undefined) {
  const row = await db
    .insertInto('files')
    .values({
      key: file.key,
      name: file.name,
      mime: file.mime,
      size: file.size,
      sha256: file.sha256,
      kind: file.kind,
      uploader_id: uploaderId ?? null,
      claim_sha256: file.claimToken ? hashToken(file.claimToken) : null,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
