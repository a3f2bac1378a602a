import autocannon from 'autocannon';
import { call, isCode200 } from './api';
import { cpuSeconds, cpuSince, postgresCpu, rssMb } from './processes';

/** Which process a scenario loads. */
export type Target = 'server' | 'baseline';

/**
 * One load scenario. Add an entry to the list in scenarios.ts to measure another endpoint:
 * every call is a POST with a JSON body and a `token` header, and counts as good only when
 * it answers HTTP 200 with `code: 200`.
 */
export interface Scenario {
  name: string;
  /** What the figure means, for the report. */
  measures: string;
  target: Target;
  path: string;
  /** A fixed body, or a function of the request number for bodies that vary. */
  body?: unknown | ((n: number) => unknown);
  /**
   * 'admin': the token of the admin signed in at start-up; 'users': each request the token of
   * another seeded user signed in at start-up (in turn); default none (public call).
   */
  token?: 'admin' | 'users' | 'none';
  /** Concurrent connections; 10 unless given. */
  connections?: number;
  /** Unit of the rate column, e.g. 'sign-ins/s'. */
  unit?: string;
}

export interface ScenarioResult {
  name: string;
  /** Which database the server ran on (the baseline has none). */
  database?: 'sqlite' | 'postgres';
  path: string;
  target: Target;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  unit: string;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** total: answers that were not HTTP 2xx with code 200, plus connection errors (timeouts included). */
  bad: { total: number; non2xx: number; notCode200: number; errors: number; timeouts: number };
  /** rps divided by the baseline's rps (null for the baseline itself or when it was not run). */
  ratioToBaseline: number | null;
  rssMb: number | null;
  /** CPU milliseconds per request of the loaded process, and of the PostgreSQL processes on a PostgreSQL run. */
  cpuMsPerRequest: { server: number | null; database: number | null };
  measures: string;
}

export interface LoadContext {
  urls: Record<Target, string>;
  pids: Record<Target, number>;
  adminToken: string;
  /** Tokens of seeded app users, for scenarios with token 'users'. */
  userTokens: string[];
  durationSeconds: number;
  warmupSeconds: number;
  /** The database the server runs on: on PostgreSQL the database processes' CPU is measured too. */
  database: 'sqlite' | 'postgres';
}

const MAX_SAMPLES = 20_000_000; // bounds the latency buffer whatever the rate

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

function bodyOf(scenario: Scenario, n: number): string {
  const body = typeof scenario.body === 'function' ? (scenario.body as (n: number) => unknown)(n) : scenario.body;
  return JSON.stringify(body ?? {});
}

function tokenFor(scenario: Scenario, ctx: LoadContext, n: number): string {
  if (scenario.token === 'admin') return ctx.adminToken;
  if (scenario.token === 'users') {
    if (ctx.userTokens.length === 0) throw new Error(`${scenario.name}: no signed-in users (seed some)`);
    return ctx.userTokens[n % ctx.userTokens.length];
  }
  return '';
}

function options(scenario: Scenario, ctx: LoadContext, seconds: number): autocannon.Options {
  const headers = { 'content-type': 'application/json', token: tokenFor(scenario, ctx, 0) };
  let n = 0;
  const request: autocannon.Request = { method: 'POST', path: scenario.path, headers, body: bodyOf(scenario, n) };
  if (typeof scenario.body === 'function' || scenario.token === 'users') {
    request.setupRequest = (req) => {
      n += 1;
      return { ...req, body: bodyOf(scenario, n), headers: { ...headers, token: tokenFor(scenario, ctx, n) } };
    };
  }
  const base = new URL(ctx.urls[scenario.target]);
  if (base.hostname !== '127.0.0.1') throw new Error(`refusing to load ${base.hostname}: only 127.0.0.1`);
  return {
    url: base.origin,
    connections: scenario.connections ?? 10,
    duration: seconds,
    requests: [request],
    verifyBody: isCode200,
    timeout: 30,
  };
}

/** Runs one scenario: a sample call, a warm-up, then the measured run. */
export async function runScenario(scenario: Scenario, ctx: LoadContext): Promise<ScenarioResult> {
  // Sample check: a scenario that only measures error answers is worthless, so stop early.
  const token = tokenFor(scenario, ctx, 0);
  const sample = await call(ctx.urls[scenario.target], scenario.path, JSON.parse(bodyOf(scenario, 0)), token);
  if (sample.code !== 200) {
    throw new Error(`${scenario.name}: sample call answered code ${sample.code} (${sample.message})`);
  }

  if (ctx.warmupSeconds > 0) await autocannon(options(scenario, ctx, ctx.warmupSeconds));

  const pid = ctx.pids[scenario.target];
  const cpuBefore = cpuSeconds(pid);
  const databaseBefore = ctx.database === 'postgres' ? postgresCpu() : null;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options(scenario, ctx, ctx.durationSeconds), (error, outcome) =>
      error ? reject(error) : resolve(outcome),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      if (count === latencies.length) {
        if (count >= MAX_SAMPLES) return;
        const grown = new Float64Array(count * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
    });
  });
  const cpuAfter = cpuSeconds(pid);
  const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, result.requests.total);
  const cpuMsPerRequest = {
    server: cpuBefore === null || cpuAfter === null ? null : perRequest(cpuAfter - cpuBefore),
    database: databaseBefore === null ? null : perRequest(cpuSince(databaseBefore, postgresCpu())),
  };
  const sorted = latencies.subarray(0, count).sort();
  // verifyBody sees every answer, so mismatches include the non-2xx ones (their code is not 200
  // either); errors include timeouts.
  const notCode200 = result.mismatches;
  const total = Math.max(result.non2xx, notCode200) + result.errors;
  return {
    name: scenario.name,
    path: scenario.path,
    target: scenario.target,
    connections: scenario.connections ?? 10,
    seconds: result.duration,
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    unit: scenario.unit ?? 'req/s',
    latencyMs: {
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: count > 0 ? sorted[count - 1] : Number.NaN,
    },
    bad: { total, non2xx: result.non2xx, notCode200, errors: result.errors, timeouts: result.timeouts },
    ratioToBaseline: null,
    rssMb: rssMb(pid),
    cpuMsPerRequest,
    measures: scenario.measures,
  };
}
