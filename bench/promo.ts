/**
 * The promotion benchmark (issue 9, promotion part): how cheap recording a `show` stays under app
 * traffic. `/api/selfapp/report` with action `show` at concurrency 10 from devices not signed in
 * and from signed-in app users, and the apps' list of promoted apps, beside the same run's
 * baseline. On a fresh SQLite database; with `--postgres postgres://…/db` also on a fresh
 * PostgreSQL database created beside that one (and dropped afterwards). Writes bench/results/promo.md.
 *
 *   cd bench && node --import tsx promo.ts [--duration 10 --warmup 2 --postgres postgres://postgres@127.0.0.1:5432/test]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serverEnv, serverNodeArgs } from '../packages/server/runtime.mjs';
import { callOk } from './lib/api';
import { featureReport, runAgainstBaseline, setUpSite, startBaseline } from './lib/feature-run';
import { sha256hex } from './lib/fixtures';
import type { LoadContext, Scenario, ScenarioResult } from './lib/load';
import { freePort, start, stop } from './lib/processes';

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const postgresAt = process.argv.includes('--postgres') ? process.argv[process.argv.indexOf('--postgres') + 1] : '';
const duration = flag('duration', 10);
const warmup = flag('warmup', 2);
const root = path.resolve(import.meta.dirname, '..');

/** Starts the built server on a fresh database, sets it up, and runs the scenarios against it. */
async function measure(
  database: 'sqlite' | 'postgres',
  databaseUrl: string,
  baseline: Awaited<ReturnType<typeof startBaseline>>,
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-promo-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = start(
    'server',
    process.execPath,
    [...serverNodeArgs, path.join(root, 'packages/server/dist/main.js')],
    {
      cwd: dataDir,
      env: {
        ...serverEnv,
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
        // The bench reports from one address far faster than one address may.
        SELFAPP_REPORTS_PER_ADDRESS_PER_MINUTE: '1000000000',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
    },
  );
  try {
    const token = await setUpSite(server, base);
    const { selfapp } = await callOk(
      base,
      '/api/selfapp/make',
      {
        name: '极简记账',
        packageId: 'com.appdesk.ledger',
        androidUrl: 'https://example.com/ledger.apk',
        iosUrl: 'https://apps.apple.com/cn/app/id1234567890',
        rewardCoins: 50,
      },
      token,
    );
    for (let i = 0; i < 5; i++) {
      await callOk(base, '/api/selfapp/make', { name: `推广应用${i}`, packageId: `com.appdesk.app${i}` }, token);
    }
    const userTokens: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const answer = await callOk(base, '/api/users/register', {
        phone: `1770000${String(i).padStart(4, '0')}`,
        password: sha256hex('Bench-user-1'),
        app: 'tailor',
      });
      userTokens.push(answer.token);
    }
    const show = (n: number) => ({
      id: selfapp.id,
      action: 'show',
      app: 'tailor',
      platform: 'android',
      channel: 'huawei',
      deviceId: `bench-device-${n % 5000}`,
    });
    const scenarios: Scenario[] = [
      {
        name: 'baseline',
        measures: 'bare Fastify 5, one POST JSON route, no database: the ceiling on this machine',
        target: 'baseline',
        path: '/api/baseline',
      },
      {
        name: 'selfapp/report show (device)',
        measures: 'a show from a device not signed in: one INSERT … SELECT, no transaction',
        target: 'server',
        path: '/api/selfapp/report',
        body: show,
      },
      {
        name: 'selfapp/report show (signed in)',
        measures: 'a show from a signed-in app user: the session lookup, then the same INSERT',
        target: 'server',
        path: '/api/selfapp/report',
        body: show,
        token: 'users',
      },
      {
        name: 'selfapp/fetch/list',
        measures: 'the promoted apps for the calling app and platform (6 rows), not signed in',
        target: 'server',
        path: '/api/selfapp/fetch/list',
        body: { app: 'tailor', platform: 'android' },
      },
    ];
    const ctx: LoadContext = {
      urls: { server: base, baseline: baseline.url },
      pids: { server: server.pid, baseline: baseline.process.pid },
      adminToken: token,
      userTokens,
      durationSeconds: duration,
      warmupSeconds: warmup,
      database,
    };
    const results = await runAgainstBaseline(scenarios, ctx);
    const rows = await callOk(base, '/api/selfapp/record/fetch/page', { size: 1, exactTotal: true }, token);
    console.log(`${database}: ${rows.total} records written`);
    return results;
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const baseline = await startBaseline(root);
const sections: string[] = [];
try {
  await baseline.ready();
  const sqlite = await measure('sqlite', '', baseline);
  sections.push(
    featureReport({
      title: 'Promotion benchmark (issue 9): recording a show — SQLite',
      root,
      run: `fresh SQLite database, ${warmup} s warm-up + ${duration} s measured per scenario, 10 connections; shows from 5,000 device ids in turn, signed-in shows from 10 app users in turn`,
      notes: ['- budget: `show` ≥ 2,000/s at concurrency 10 with p99 ≤ 20 ms'],
      results: sqlite,
    }),
  );
  if (postgresAt) {
    const name = `appdesk_promo_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: postgresAt });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(postgresAt);
    url.pathname = `/${name}`;
    let results: ScenarioResult[] = [];
    try {
      results = await measure('postgres', url.toString(), baseline);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    sections.push(
      featureReport({
        title: 'The same on PostgreSQL',
        root,
        run: `fresh PostgreSQL database on the same machine, otherwise as above`,
        results,
      }),
    );
  }
  const text = sections.join('\n');
  writeFileSync(path.join(root, 'bench/results/promo.md'), text);
  console.log(text);
} finally {
  await stop(baseline.process);
}
