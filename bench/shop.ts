/**
 * The coin-shop benchmark (issue 11, redemption part): `/api/exchange/make` on a fresh SQLite
 * server at concurrency 10, ten app users redeeming a 1-coin VIP item (coins debited through the
 * ledger, VIP granted, record written, in one transaction), beside the same run's baseline.
 * Writes bench/results/shop.md.
 *
 *   npm run shop -w @appdesk/bench [-- --duration 10 --warmup 2]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverEnv, serverNodeArgs } from '../packages/server/runtime.mjs';
import { callOk } from './lib/api';
import { featureReport, runAgainstBaseline, setUpSite, startBaseline } from './lib/feature-run';
import { sha256hex } from './lib/fixtures';
import type { LoadContext, Scenario } from './lib/load';
import { freePort, start, stop } from './lib/processes';

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = flag('duration', 10);
const warmup = flag('warmup', 2);
const root = path.resolve(import.meta.dirname, '..');

const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-shop-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = start('server', process.execPath, [...serverNodeArgs, path.join(root, 'packages/server/dist/main.js')], {
  cwd: dataDir,
  env: {
    ...serverEnv,
    PATH: process.env.PATH,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
  },
});
const baseline = await startBaseline(root);
try {
  await baseline.ready();
  const token = await setUpSite(server, base);
  const { item } = await callOk(
    base,
    '/api/exchange/item/make',
    { name: '1 天会员', kind: 'vip_days', value: 1, costCoins: 1, enabled: true },
    token,
  );
  const userTokens: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    const answer = await callOk(base, '/api/users/register', {
      phone: `1760000${String(i).padStart(4, '0')}`,
      password: sha256hex('Bench-user-1'),
      app: 'tailor',
    });
    userTokens.push(answer.token);
    const id = (answer.user as { id: number }).id;
    await callOk(base, '/api/users/update/coins', { id, delta: 1_000_000, reason: '压测' }, token);
  }

  const scenarios: Scenario[] = [
    {
      name: 'baseline',
      measures: 'bare Fastify 5, one POST JSON route, no database: the ceiling on this machine',
      target: 'baseline',
      path: '/api/baseline',
    },
    {
      name: 'exchange/make',
      measures:
        'an app user redeems a 1-coin VIP item: item read, ledger debit, VIP grant, record insert, one SQLite write transaction',
      target: 'server',
      path: '/api/exchange/make',
      body: { itemId: item.id },
      token: 'users',
    },
  ];
  const ctx: LoadContext = {
    urls: { server: base, baseline: baseline.url },
    pids: { server: server.pid, baseline: baseline.process.pid },
    adminToken: token,
    userTokens,
    durationSeconds: duration,
    warmupSeconds: warmup,
    database: 'sqlite',
  };
  const results = await runAgainstBaseline(scenarios, ctx);
  const text = featureReport({
    title: 'Coin-shop benchmark (issue 11): redemption',
    root,
    run: `fresh SQLite database, ${warmup} s warm-up + ${duration} s measured per scenario, 10 connections, 10 signed-in app users in turn`,
    results,
  });
  writeFileSync(path.join(root, 'bench/results/shop.md'), text);
  console.log(text);
} finally {
  await stop(baseline.process);
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
