import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Code, codeMessage } from '@appdesk/contract/codes';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config';
import { AppRegistry } from './core/apps';
import { isLockConflict } from './db/conflicts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './db/index';
import type { Migration } from './db/migrations/index';
import { classifyOutage } from './db/outage';
import { buildOpenApi } from './features/docs/openapi';
import { afterBody } from './http/after-body';
import type { AdminGate, NoticeSource, Services } from './http/context';
import { registerProbes, replyLockConflict, replyUnavailable } from './http/probes';
import { logCompleted, noteCode, redactedLogPaths } from './http/request-log';
import { envelope, type RouteTable, registerEndpoints } from './http/route';
import { registerSecurityHeaders } from './http/security-headers';
import { createMetrics, observeRequests, registerMetricsRoute } from './ops/metrics';
import { refuseWhileStopping } from './ops/shutdown';
import { openStorage } from './storage/open';
import type { FileReference } from './storage/references';
import { keepReserve } from './storage/reserve';
import { registerFileRoutes } from './storage/serve';

/*
 * Features are found, not listed: a folder under features/ contributes its handlers
 * (`*routes.ts`, default export), its migrations (`migrations/*.ts`, named by time so they apply
 * in the order they were written), its header-bell notices (`notices.ts`), the columns where
 * it keeps stored files' URLs (`files.ts`) and what it requires of operators (`gate.ts`). The contract's
 * endpoint table decides which handlers must exist.
 */
const routeTables = Object.values(
  import.meta.glob<{ default: RouteTable }>('./features/*/*routes.ts', { eager: true }),
).map((m) => m.default);
const noticeSources = Object.values(
  import.meta.glob<{ default: NoticeSource }>('./features/*/notices.ts', { eager: true }),
).map((m) => m.default);
export const fileReferences = Object.values(
  import.meta.glob<{ default: FileReference[] }>('./features/*/files.ts', { eager: true }),
).flatMap((m) => m.default);
/** What features require of an operator before any admin call (a second factor their role asks for). */
const adminGates = Object.values(import.meta.glob<{ default: AdminGate }>('./features/*/gate.ts', { eager: true })).map(
  (m) => m.default,
);
/** Plain routes a platform calls in its own format (payment notifications), each feature in its own scope. */
const callbackPlugins = Object.values(
  import.meta.glob<{ default: (app: FastifyInstance, services: Services) => Promise<void> }>(
    './features/*/callbacks.ts',
    {
      eager: true,
    },
  ),
).map((m) => m.default);
const featureMigrations: Migration[] = Object.entries(
  import.meta.glob<Pick<Migration, 'up'>>('./features/*/migrations/*.ts', { eager: true }),
).map(([file, m]) => ({ name: path.basename(file, '.ts'), up: m.up }));

export interface App {
  app: FastifyInstance;
  services: Services;
  close(): Promise<void>;
}

/**
 * Fastify's own reading of a hop count trusts nothing (it fails closed), so a count becomes the
 * function Express uses: the first `hops` addresses from the socket inward are proxies, and the
 * client is the address the outermost of them appended (never the left-most, client-written one).
 */
function proxyTrust(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Builds the whole server (API, uploaded files, web app) on a migrated database. */
export async function buildApp(
  config: Config,
  options: {
    logger?: FastifyServerOptions['logger'];
    database?: DatabaseHandle;
    onHandlerRun?: Services['onHandlerRun'];
  } = {},
): Promise<App> {
  const database =
    options.database ??
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      synchronous: config.sqliteSynchronous,
      busyTimeoutMs: config.sqliteBusyTimeoutMs,
      // PostgreSQL's connections; SQLite's readers follow the cores.
      poolSize: config.databaseUrl ? config.databasePoolSize : undefined,
      poolWaitMs: config.databasePoolWaitMs,
    });
  await migrateToLatest(database, featureMigrations);
  const storage = await openStorage(config.storageUrl, config.dataDir);
  await storage.init();
  await keepReserve(config.dataDir);
  const services: Services = {
    config,
    db: database.db,
    dialect: database.dialect,
    storage,
    noticeSources,
    fileReferences,
    adminGates,
    apps: new AppRegistry(database.db, config),
    onHandlerRun: options.onHandlerRun,
  };
  // Read once now: an export or a log line names an app by the name this holds.
  await services.apps.all();

  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: redactedLogPaths,
    },
    // One line per request, written when it ends (http/request-log.ts): with the result code and who.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    bodyLimit: config.limits.jsonBody,
    trustProxy: proxyTrust(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify leaves Node's request timeout off, which also turns its header timeout off: a client
    // could hold a connection forever sending a byte of headers at a time. Node checks both every
    // connectionsCheckingInterval, so that is a fraction of the header timeout.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(config.headersTimeoutMs / 4))),
    },
  });

  registerSecurityHeaders(app);
  database.onConnectionError((error) =>
    app.log.warn({ reason: error.message, code: (error as { code?: string }).code }, '数据库连接中断，将自动重连'),
  );
  const metrics = createMetrics(database);
  observeRequests(app, metrics);
  refuseWhileStopping(app);
  registerProbes(app, services);
  registerMetricsRoute(app, metrics, config.metricsToken);
  app.addHook('onResponse', (request, reply, done) => {
    logCompleted(request, reply);
    done();
  });

  // A POST with an empty JSON body means "no parameters" (the old client sends none).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Only JSON and multipart are spoken; anything else is answered 415 before an endpoint runs.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, done);
  });

  await app.register(multipart, { limits: { fileSize: config.limits.package, files: 1 } });

  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    noteCode(request, status >= 400 && status < 600 ? status : Code.INTERNAL);
    if (status === 413) {
      // The rest of the body is read first (up to the largest upload nginx lets through), so the
      // answer reaches a proxy still sending it as 413, not as a reset.
      const largest = config.limits.package + 1024 * 1024;
      return afterBody(request, () => reply.status(413).send(envelope(Code.TOO_LARGE, '请求体过大')), largest);
    }
    if (status === 415) {
      return reply
        .status(415)
        .send(envelope(Code.UNSUPPORTED_TYPE, '不支持的请求类型，请使用 JSON 或 multipart/form-data'));
    }
    if (status === 400) return reply.status(400).send(envelope(Code.BAD_INPUT, '请求体不是合法的 JSON'));
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ code: status, message: codeMessage[Code.BAD_INPUT], data: null });
    }
    if (isLockConflict(error)) return replyLockConflict(reply, request.log, error);
    const outage = classifyOutage(error);
    if (outage) return replyUnavailable(reply, request.log, outage, error);
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(envelope(Code.INTERNAL));
  });

  registerEndpoints(app, services, routeTables);
  for (const plugin of callbackPlugins) await app.register((scope) => plugin(scope, services));

  const openApi = buildOpenApi();
  app.get('/api/openapi.json', async () => openApi);

  await registerFileRoutes(app, storage);

  const webDir = config.webDir;
  const indexHtml = webDir ? path.join(webDir, 'index.html') : undefined;
  if (webDir && indexHtml && existsSync(indexHtml)) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      preCompressed: true,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        res.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|files|assets)(\/|$)/.test(url);
    if (isPage && indexHtml && existsSync(indexHtml)) {
      // Client-side routes: every page path answers the app shell.
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', webDir as string);
    }
    noteCode(request, Code.NOT_FOUND);
    return reply.status(404).send(envelope(Code.NOT_FOUND, url.startsWith('/api/') ? '接口不存在' : '页面不存在'));
  });

  let closing: Promise<void> | undefined;
  return {
    app,
    services,
    // Once: a signal during a test's own close (or a second signal) waits for the same close.
    close: () => {
      closing ??= (async () => {
        await app.close();
        await database.close();
      })();
      return closing;
    },
  };
}
