/**
 * The commerce benchmark (issue 10): creating orders, and verifying and recording StoreKit 2
 * transactions, on a fresh SQLite server at concurrency 10. Writes bench/results/commerce.md.
 *
 *   npm run commerce -w @appdesk/bench [-- --duration 10 --warmup 2 --cpu-profile]
 *
 * The server trusts a StoreKit chain the run makes itself (packages/server/test/storekit-chain.ts),
 * and every verify request carries a transaction id never sent before, so each one is verified,
 * recorded and granted (not answered as a duplicate).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverEnv, serverNodeArgs } from '../packages/server/runtime.mjs';
import { makeTestChain } from '../packages/server/test/storekit-chain';
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
const profile = process.argv.includes('--cpu-profile');
const root = path.resolve(import.meta.dirname, '..');
const bundleId = 'com.example.tailor';

const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-commerce-'));
const chain = makeTestChain();
writeFileSync(path.join(dataDir, 'apple-root.der'), chain.rootDer);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = start(
  'server',
  process.execPath,
  [
    ...serverNodeArgs,
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
      REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
      APPLE_BUNDLE_ID: bundleId,
      APPLE_APP_APPLE_ID: '1234',
      APPLE_ENVIRONMENTS: 'Sandbox',
      APPLE_ROOT_CERTIFICATES: path.join(dataDir, 'apple-root.der'),
    },
  },
);
const baseline = await startBaseline(root);
try {
  await baseline.ready();
  const token = await setUpSite(server, base);
  const { plan } = await callOk(
    base,
    '/api/plan/make',
    { name: '月度会员', price: 1800, durationDays: 30, bonusCoins: 100, onSale: true },
    token,
  );
  await callOk(
    base,
    '/api/iap/make',
    { platform: 'ios', productId: 'com.example.coins', type: 'consumable', name: '金币包', price: 600, coins: 60 },
    token,
  );
  const userTokens: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    const answer = await callOk(base, '/api/users/register', {
      phone: `1770000${String(i).padStart(4, '0')}`,
      password: sha256hex('Bench-user-1'),
      app: 'tailor',
    });
    userTokens.push(answer.token);
  }

  // Enough never-sent transactions for the warm-up and the measured run at well over the target.
  const signed: string[] = [];
  const now = Date.now();
  for (let i = 0; i < (warmup + duration) * 1500; i += 1) {
    signed.push(
      chain.sign({
        transactionId: String(3_000_000 + i),
        originalTransactionId: String(3_000_000 + i),
        bundleId,
        productId: 'com.example.coins',
        purchaseDate: now,
        signedDate: now,
        environment: 'Sandbox',
        type: 'Consumable',
      }),
    );
  }
  let next = 0;
  let wrapped = false;
  const scenarios: Scenario[] = [
    {
      name: 'baseline',
      measures: 'bare Fastify 5, one POST JSON route, no database: the ceiling on this machine',
      target: 'baseline',
      path: '/api/baseline',
    },
    {
      name: 'order/make',
      measures: 'an app user orders a plan: plan read, order insert, timeline row, in one SQLite write transaction',
      target: 'server',
      path: '/api/order/make',
      body: { planId: plan.id, payMethod: 'alipay', channel: 'huawei' },
      token: 'users',
    },
    {
      name: 'iaprecord/apple',
      measures:
        'StoreKit 2: verify the JWS offline (chain and signature), record it and grant 60 coins through the ledger',
      target: 'server',
      path: '/api/iaprecord/apple',
      body: () => {
        if (next >= signed.length) wrapped = true;
        return { signedTransaction: signed[next++ % signed.length] };
      },
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
    title: 'Commerce benchmark (issue 10)',
    root,
    run: `fresh SQLite database, ${warmup} s warm-up + ${duration} s measured per scenario, 10 connections, 10 signed-in app users in turn`,
    notes: [
      `- StoreKit transactions: each request a transaction id never sent before${wrapped ? ' (the pre-signed set ran out: the tail were duplicates)' : ''}`,
    ],
    results,
  });
  writeFileSync(path.join(root, 'bench/results/commerce.md'), text);
  console.log(text);
} finally {
  await stop(baseline.process);
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
