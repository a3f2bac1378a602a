/**
 * Database outages (issue 7): a PostgreSQL restart in immediate mode under a mixed load. The
 * server must stay up, answer 503 服务暂不可用，请稍后重试 while the database is gone, serve
 * again within 5 s of its return without a restart, and never apply a write twice.
 *
 * The cluster is the test's own (initdb into a temporary folder on a free port): the shared one
 * on 5432 is never touched. Runs once, in the SQLite project, whatever TEST_DATABASE_URL says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/index';
import { digest, testDb } from './harness';
import { type PrivatePostgres, postgresBin, startPrivatePostgres } from './private-postgres';

const bin = postgresBin();
const UNAVAILABLE = '服务暂不可用，请稍后重试';

if (!bin) {
  console.warn(
    'outage.test.ts: PostgreSQL server binaries (/usr/lib/postgresql/*/bin) are absent: restart test skipped',
  );
}

interface Body {
  code: number;
  message: string;
  data?: { token?: string; user?: { id: number }; recordId?: number };
}

interface Sent {
  kind: 'read' | 'write';
  at: number;
  status: number;
  code: number;
  message: string;
  note?: string;
  recordId?: number;
}

describe.runIf(bin && testDb === 'sqlite')('PostgreSQL restart (immediate) under load', () => {
  let cluster: PrivatePostgres;
  let app: App;
  let url = '';
  let dataDir = '';
  const logs: string[] = [];
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    cluster = await startPrivatePostgres(bin as string);
    dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-outage-'));
    const config = loadConfig({ dataDir, webDir: undefined, databaseUrl: cluster.url });
    app = await buildApp(config, {
      database: openDatabase({ databaseUrl: cluster.url, dataDir }),
      logger: {
        level: 'info',
        stream: new Writable({
          write(chunk, _e, done) {
            logs.push(String(chunk));
            done();
          },
        }),
      },
    });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await app?.close().catch(() => {});
    cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (p: string, body: unknown, token = '') => {
    const response = await fetch(url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, body: (await response.json()) as Body };
  };

  it('stays up, answers 503 while down, serves within 5 s of the return, applies every write once', async () => {
    const password = await digest('Admin12345');
    const init = await post('/api/allocation/init', { phone: '13800000000', password, title: '站', slogen: '语' });
    expect(init.body.code).toBe(200);
    const login = await post('/api/users/login', { phone: '13800000000', password });
    const token = login.body.data?.token as string;
    const registered = await post('/api/users/register', { phone: '13900000001', password, app: 'tailor' });
    const userId = registered.body.data?.user?.id as number;

    const sent: Sent[] = [];
    let stop = false;
    let serial = 0;
    const worker = async (w: number) => {
      while (!stop) {
        const write = serial % 2 === 0;
        const note = `load-${w}-${serial++}`;
        const at = Date.now();
        try {
          const answer = write
            ? await post('/api/users/update/coins', { id: userId, delta: 1, reason: note }, token)
            : await post('/api/users/fetch/page', { page: 0, size: 10 }, token);
          sent.push({
            kind: write ? 'write' : 'read',
            at,
            status: answer.status,
            code: answer.body.code,
            message: answer.body.message,
            ...(write ? { note, recordId: answer.body.data?.recordId } : {}),
          });
        } catch (error) {
          // Connection refused or reset by the HTTP server would mean it died: record it.
          sent.push({ kind: write ? 'write' : 'read', at, status: 0, code: 0, message: String(error) });
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    // Each phase lasts until enough calls were answered in it, not a fixed time: a loaded machine
    // answers fewer calls a second, and the checks below need traffic in every phase.
    const until = async (enough: () => boolean) => {
      for (const started = Date.now(); !enough() && Date.now() - started < 30_000; ) {
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const acked = (after: number) => sent.filter((s) => s.kind === 'write' && s.code === 200 && s.at >= after).length;

    await until(() => acked(0) >= 12);
    await cluster.stopImmediate();
    const downAt = Date.now();
    await new Promise((r) => setTimeout(r, 300));
    const readyWhileDown = await fetch(`${url}/readyz`);
    const readyBody = (await readyWhileDown.json()) as { code: number; message: string };
    await new Promise((r) => setTimeout(r, 1500));
    await until(() => sent.filter((s) => s.at > downAt + 100).length > 12);
    const startAt = Date.now();
    await cluster.start();
    const backAt = Date.now();
    // The first success after the database's return.
    let servedAt = 0;
    while (Date.now() - backAt < 10_000) {
      const ok = sent.find((s) => s.at >= backAt && s.code === 200);
      if (ok) {
        servedAt = ok.at;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1000));
    await until(() => acked(servedAt) >= 12);
    stop = true;
    await Promise.all(workers);
    const readyAfter = await fetch(`${url}/readyz`);

    const during = sent.filter((s) => s.at > downAt + 100 && s.at < startAt);
    const failures = sent.filter((s) => s.code !== 200);
    const summary = {
      sent: sent.length,
      during: during.length,
      codes: Object.fromEntries(
        [...new Set(sent.map((s) => s.code))].map((c) => [c, sent.filter((s) => s.code === c).length]),
      ),
      recoveredMs: servedAt ? servedAt - backAt : null,
    };
    console.log('PostgreSQL restart under load:', JSON.stringify(summary));

    expect(uncaught.map((e) => String((e as Error)?.message ?? e))).toEqual([]);
    expect(readyWhileDown.status).toBe(503);
    expect(readyBody).toMatchObject({ code: 503, message: UNAVAILABLE });
    expect(readyAfter.status).toBe(200);
    // While down: every call answered (the process lives), with code 503 and the message.
    expect(during.length).toBeGreaterThan(10);
    for (const s of during) expect(s).toMatchObject({ status: 200, code: 503, message: UNAVAILABLE });
    // Anything that failed at all failed as an outage: no 500, no refused connection.
    for (const s of failures) expect(s).toMatchObject({ status: 200, code: 503, message: UNAVAILABLE });
    expect(servedAt).toBeGreaterThan(0);
    expect(servedAt - backAt).toBeLessThan(5000);
    expect(sent.filter((s) => s.at > servedAt + 200 && s.code !== 200)).toEqual([]);

    // Every acknowledged write is there exactly once; the balance equals the ledger.
    const acknowledged = sent.filter((s) => s.kind === 'write' && s.code === 200);
    expect(acknowledged.length).toBeGreaterThan(20);
    const db = app.services.db;
    const rows = await db.selectFrom('coin_records').select(['note', 'id']).where('user_id', '=', userId).execute();
    const byNote = new Map<string, number>();
    for (const r of rows) byNote.set(r.note ?? '', (byNote.get(r.note ?? '') ?? 0) + 1);
    for (const s of acknowledged) expect(byNote.get(s.note as string), s.note).toBe(1);
    expect(Math.max(...byNote.values())).toBe(1);
    const user = await db.selectFrom('users').select('coins').where('id', '=', userId).executeTakeFirstOrThrow();
    expect(Number(user.coins)).toBe(rows.length);
    expect(logs.some((l) => l.includes('数据库暂不可用'))).toBe(true);
  });
});
