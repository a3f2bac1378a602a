/**
 * Per-call cost of the small app-facing calls (issues 8 and 9) on a fresh SQLite server, beside the
 * same run's bare baseline: the update check, remote config (full and "unchanged"), a promotion
 * `show` and the promoted-apps list. For profiling the path every request pays; the figures of
 * record come from `npm run bench` (1M users) and promo.ts / media.ts.
 *
 *   cd bench && node --import tsx calls.ts [--duration 10 --warmup 2 --cpu-profile --only name,name]
 *
 * `--cpu-profile` writes the server's V8 profile into bench/results/profiles/ (not committed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverEnv, serverNodeArgs } from '../packages/server/runtime.mjs';
import { callOk } from './lib/api';
import { prepareAppData } from './lib/app-data';
import { featureReport, runAgainstBaseline, setUpSite, startBaseline } from './lib/feature-run';
import type { LoadContext, Scenario } from './lib/load';
import { freePort, start, stop } from './lib/processes';
import { appCallScenarios } from './scenarios';

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = flag('duration', 10);
const warmup = flag('warmup', 2);
const profile = process.argv.includes('--cpu-profile');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : null;
const root = path.resolve(import.meta.dirname, '..');

const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-calls-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = start(
  'server',
  process.execPath,
  [
    // CALLS_NODE_ARGS replaces runtime.mjs's flags (to compare V8 settings).
    ...(process.env.CALLS_NODE_ARGS?.split(' ').filter(Boolean) ?? serverNodeArgs),
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/results/profiles')}`] : []),
    path.join(root, 'packages/server/dist/main.js'),
  ],
  {
    cwd: dataDir,
    env: {
      ...serverEnv,
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // The bench reports from one address far faster than one address may.
      SELFAPP_REPORTS_PER_ADDRESS_PER_MINUTE: '1000000000',
    },
  },
);
const baseline = await startBaseline(root);
try {
  await baseline.ready();
  const token = await setUpSite(server, base);
  const appData = await prepareAppData(base, token);
  const { selfapp } = await callOk(
    base,
    '/api/selfapp/make',
    {
      name: '极简记账',
      packageId: 'com.appdesk.ledger',
      androidUrl: 'https://example.com/ledger.apk',
      rewardCoins: 50,
    },
    token,
  );
  const all: Scenario[] = [
    {
      name: 'baseline',
      measures: 'bare Fastify 5, one POST JSON route, no database: the ceiling on this machine',
      target: 'baseline',
      path: '/api/baseline',
    },
    {
      name: 'allocation/fetch',
      measures: 'the public site configuration',
      target: 'server',
      path: '/api/allocation/fetch',
    },
    ...appCallScenarios(appData),
    {
      name: 'selfapp/report show',
      measures: 'a promotion show from a device not signed in',
      target: 'server',
      path: '/api/selfapp/report',
      body: (n: number) => ({
        id: selfapp.id,
        action: 'show',
        app: 'tailor',
        platform: 'android',
        channel: 'huawei',
        deviceId: `bench-device-${n % 5000}`,
      }),
    },
  ];
  const scenarios = all.filter((s, i) => i === 0 || !only || only.some((o) => s.name.startsWith(o)));
  const ctx: LoadContext = {
    urls: { server: base, baseline: baseline.url },
    pids: { server: server.pid, baseline: baseline.process.pid },
    adminToken: token,
    userTokens: [],
    durationSeconds: duration,
    warmupSeconds: warmup,
    database: 'sqlite',
  };
  const results = await runAgainstBaseline(scenarios, ctx);
  console.log(
    featureReport({
      title: 'Small app calls',
      root,
      run: `fresh SQLite database, ${warmup} s warm-up + ${duration} s measured per scenario, 10 connections`,
      results,
    }),
  );
} finally {
  await stop(baseline.process);
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
