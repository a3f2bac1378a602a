import { createHash, timingSafeEqual } from 'node:crypto';
import { Code } from '@appdesk/contract/codes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/index';
import { requestInfo } from '../http/request-log';
import { FastHistogram } from './histogram';

/** Process-wide metrics (memory, CPU, event-loop lag, GC): one set per process, however many apps it builds. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

const LOGIN_PATH = '/api/users/login';
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_SECONDS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

export interface Metrics {
  registry: Registry;
  /** Called when a request ends, with its route pattern: a map lookup and a few additions. */
  observe(route: string, request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * The application's metrics: requests per endpoint (route pattern, never the raw URL), method,
 * HTTP status and result code; their latency; database query times and pool state; kept upload
 * bytes; failed sign-ins by code.
 */
export function createMetrics(database: Pick<DatabaseHandle, 'onQuery' | 'poolStats' | 'dialect'>): Metrics {
  const registry = new Registry();
  const latency = new FastHistogram(
    'appdesk_http_request_duration_seconds',
    'Time from receiving a request to answering it, per endpoint, method, HTTP status and result code',
    SECONDS,
  );
  latency.register(registry, {
    name: 'appdesk_http_requests_total',
    help: 'Requests answered, per endpoint, method, HTTP status and result code',
  });
  const queries = new FastHistogram(
    'appdesk_db_query_duration_seconds',
    'Database query time (point reads on the main-thread SQLite connection excluded)',
    QUERY_SECONDS,
  );
  queries.register(registry);
  const uploadBytes = new Counter({
    name: 'appdesk_upload_bytes_total',
    help: 'Bytes of uploaded files kept',
    registers: [registry],
  });
  const loginFailures = new Counter({
    name: 'appdesk_login_failures_total',
    help: 'Sign-ins refused, per result code (401 wrong password or unknown phone, 429 locked, 403 blocked)',
    labelNames: ['code'],
    registers: [registry],
  });
  new Gauge({
    name: 'appdesk_db_pool_connections',
    help: 'Database pool connections: total, idle, and callers waiting for one',
    labelNames: ['state', 'database'],
    registers: [registry],
    collect() {
      const stats = database.poolStats();
      this.set({ state: 'total', database: database.dialect }, stats.total);
      this.set({ state: 'idle', database: database.dialect }, stats.idle);
      this.set({ state: 'waiting', database: database.dialect }, stats.waiting);
    },
  });
  database.onQuery((ms, kind, failed) => {
    const series = queries.series(failed ? `${kind}!` : kind, () => ({
      kind: kind.replace(/QueryNode$|Node$/, '').toLowerCase() || 'raw',
      failed: failed ? '1' : '0',
    }));
    queries.observe(series, ms / 1000);
  });

  return {
    registry,
    observe(route, request, reply) {
      const info = requestInfo(request);
      const status = reply.statusCode;
      const code = info?.code ?? status;
      const method = request.method;
      const series = latency.series(`${route} ${method} ${status} ${code}`, () => ({
        route,
        method,
        status: String(status),
        code: String(code),
      }));
      latency.observe(series, reply.elapsedTime / 1000);
      if (info?.uploadBytes && code === Code.OK) uploadBytes.inc(info.uploadBytes);
      if (route === LOGIN_PATH && code !== Code.OK) loginFailures.labels(String(code)).inc();
    },
  };
}

/**
 * Observes every request when it ends. Each route gets its own hook closing over its pattern
 * (reading it from the request builds an object per call); unknown paths count as `unmatched`.
 * Call before any route is added.
 */
export function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRoute', (route) => {
    const url = route.url;
    const hook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      metrics.observe(url, request, reply);
      done();
    };
    const existing = route.onResponse;
    route.onResponse = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) metrics.observe('unmatched', request, reply);
    done();
  });
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const loopback = (address: string | undefined) =>
  address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

/**
 * `GET /metrics` (Prometheus text format). With `METRICS_TOKEN` set it needs
 * `Authorization: Bearer <token>`; without, only callers on this machine get it (the socket and,
 * behind a trusted proxy, the forwarded client address must both be loopback).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const expected = token ? digest(token) : undefined;
  app.get('/metrics', async (request, reply) => {
    if (expected) {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? digest(header.slice(7)) : undefined;
      if (!given || !timingSafeEqual(given, expected)) {
        return reply
          .status(401)
          .header('WWW-Authenticate', 'Bearer')
          .send({ code: Code.UNAUTHENTICATED, message: '需要指标令牌', data: null });
      }
    } else if (!loopback(request.socket.remoteAddress) || !loopback(request.ip)) {
      return reply
        .status(403)
        .send({ code: Code.FORBIDDEN, message: '指标只对本机开放（或设置 METRICS_TOKEN）', data: null });
    }
    const text = (await processMetrics().metrics()) + (await metrics.registry.metrics());
    return reply.header('Content-Type', metrics.registry.contentType).header('Cache-Control', 'no-store').send(text);
  });
}
