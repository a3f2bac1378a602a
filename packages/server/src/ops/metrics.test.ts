import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, singleInstanceOnly, startServer, type TestServer, tinyPng } from '../../test/harness';

/** The value of one sample line of the exposition, or 0 when the series has not appeared. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== '{' && rest[0] !== ' ') continue;
    if (Object.entries(labels).every(([k, v]) => rest.includes(`${k}="${v}"`))) return Number(line.split(' ').pop());
  }
  return 0;
}

describe('probes and metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('answers /healthz and /readyz with the database and storage checked', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).data).toMatchObject({ status: 'ready', database: 'ok', storage: 'ok' });
  });

  it.runIf(singleInstanceOnly('metrics are per instance and nginx does not pass /metrics on'))(
    'counts requests per endpoint and code, failed sign-ins, upload bytes, queries, lag and memory',
    async () => {
      const { token, phone } = await server.initAdmin();
      await server.call('/api/allocation/fetch');
      await server.call('/api/users/login', { phone, password: await digest('wrong-password-1') });
      const kept = await server.upload('/api/finder/single', 'file', tinyPng, 'a.png', token);
      expect(kept.body.code).toBe(200);
      const answer = await fetch(`${server.url}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      const text = await answer.text();
      const fetchLabels = { route: '/api/allocation/fetch', method: 'POST', status: '200', code: '200' };
      expect(sample(text, 'appdesk_http_requests_total', fetchLabels)).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'appdesk_http_request_duration_seconds_count', fetchLabels)).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'appdesk_login_failures_total', { code: '401' })).toBe(1);
      expect(sample(text, 'appdesk_upload_bytes_total')).toBe(tinyPng.length);
      expect(sample(text, 'appdesk_db_query_duration_seconds_count', { kind: 'select' })).toBeGreaterThan(0);
      expect(sample(text, 'appdesk_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      // Unknown paths share one series, so a scan cannot grow the metrics without bound.
      await fetch(`${server.url}/api/no/such/${Math.random()}`, { method: 'POST' });
      const after = await (await fetch(`${server.url}/metrics`)).text();
      expect(after).toContain('route="unmatched"');
      expect(after).not.toContain('/api/no/such');
    },
  );

  it.runIf(singleInstanceOnly('metrics are per instance and nginx does not pass /metrics on'))(
    'keeps /metrics to this machine without a token, also behind a proxy',
    async () => {
      const proxied = await startServer({ trustProxy: 1 });
      try {
        const local = await fetch(`${proxied.url}/metrics`);
        expect(local.status).toBe(200);
        const remote = await fetch(`${proxied.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
        expect(remote.status).toBe(403);
      } finally {
        await proxied.close();
      }
    },
  );

  it.runIf(singleInstanceOnly('metrics are per instance and nginx does not pass /metrics on'))(
    'asks for the bearer token when METRICS_TOKEN is set',
    async () => {
      const guarded = await startServer({ metricsToken: 'metrics-secret-7' });
      try {
        expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
        const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
        expect(wrong.status).toBe(401);
        const right = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer metrics-secret-7' } });
        expect(right.status).toBe(200);
        expect(await right.text()).toContain('appdesk_http_requests_total');
      } finally {
        await guarded.close();
      }
    },
  );
});
