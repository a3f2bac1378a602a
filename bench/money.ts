/**
 * Concurrent money writes on PostgreSQL (issue 26, done-when 3): ten clients mixing VIP
 * redemptions, orders paid by an operator and orders paid by signed Alipay / WeChat Pay
 * notifications, on five shared users, for `--duration` seconds; then each kind alone for as
 * long, so the mix's rate can be compared with each kind's. Counts HTTP 500s and 503 answers
 * (resent, as a client does), then checks every acknowledged write is present once and balances
 * equal their ledgers. Writes bench/results/money-concurrency.md (`--out FILE` elsewhere).
 *
 *   npm run money -w @appdesk/bench [-- --duration 30 --clients 10 --postgres URL]
 *
 * Needs the built server (npm run build -w @appdesk/server). The database is created fresh
 * (appdesk_money_<pid>) on the given server and dropped at the end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../packages/server/src/db/schema';
import {
  type MoneyKind,
  type MoneyRun,
  moneyKinds,
  moneyProblems,
  prepareMoneySite,
  runMoneyMix,
} from '../packages/server/test/money-mix';
import { makePaymentKeys } from '../packages/server/test/payment-signers';
import { setUpSite } from './lib/feature-run';
import { connectionOf } from './lib/postgres-url';
import { stop } from './lib/processes';
import { gitRevision, machine } from './lib/report';
import { startSeededServer } from './lib/server';

const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? String(process.argv[i + 1]) : fallback;
};
const duration = Number(flag('duration', '30'));
const clients = Number(flag('clients', '10'));
const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(flag('out', path.join(root, 'bench/results/money-concurrency.md')));
const adminUrl = flag(
  'postgres',
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);

const name = `appdesk_money_${process.pid}`;
const databaseUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
})();
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${name}`);
await admin.query(`create database ${name}`);
await admin.end();

const keys = makePaymentKeys();
const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-money-'));
const env = {
  ALIPAY_APP_ID: keys.alipayAppId,
  ALIPAY_PUBLIC_KEY: keys.alipayPublicKey,
  WECHATPAY_MCH_ID: keys.wechatMchId,
  WECHATPAY_API_V3_KEY: keys.wechatApiV3Key,
  WECHATPAY_PLATFORM_PUBLIC_KEY: keys.wechatPublicKey,
  WECHATPAY_PLATFORM_SERIAL: keys.wechatSerial,
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
};

const { child, base } = await startSeededServer(dataDir, { databaseUrl, log: console.log, env });
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 2 }) }),
});
try {
  const token = await setUpSite(child, base);
  const site = await prepareMoneySite(base, token, keys);
  const runs: { label: string; kinds: MoneyKind[]; run: MoneyRun }[] = [];
  const measure = async (label: string, kinds: MoneyKind[]) => {
    const run = await runMoneyMix(site, { kinds, clients, seconds: duration });
    runs.push({ label, kinds, run });
    console.log(`${label}: ${(run.calls / duration).toFixed(1)} calls/s, 500: ${run.http500}, 503: ${run.unavailable}`);
  };
  await measure('mix', moneyKinds);
  for (const kind of moneyKinds) await measure(`${kind} alone`, [kind]);
  const all: MoneyRun = {
    ...(runs[0] as { run: MoneyRun }).run,
    redeemed: [],
    paidByOperator: [],
    paidByNotification: [],
  };
  for (const { run } of runs) {
    all.redeemed.push(...run.redeemed);
    all.paidByOperator.push(...run.paidByOperator);
    all.paidByNotification.push(...run.paidByNotification);
  }
  const problems = await moneyProblems(db, all);
  const mix = (runs[0] as { run: MoneyRun }).run;
  const rate = (r: MoneyRun) => r.calls / duration;
  const rows = runs.map(({ label, run }) => {
    const ratio = label === 'mix' ? '' : (rate(run) / rate(mix)).toFixed(2);
    const done = moneyKinds.map((k) => (run.done[k] / duration).toFixed(1)).join(' / ');
    return `| ${label} | ${rate(run).toFixed(1)} | ${done} | ${run.http500} | ${run.unavailable} | ${run.unexpected.length} | ${ratio} |`;
  });
  const m = machine();
  const text = `# Concurrent money writes on PostgreSQL (issue 26)

\`npm run money -w @appdesk/bench -- --duration ${duration} --clients ${clients}\` (bench/money.ts), revision ${gitRevision(root) ?? 'unknown'},
${m.cpus} × ${m.cpuModel}, Node ${m.node}; PostgreSQL over ${connectionOf(adminUrl)}, a fresh database; the built server
(packages/server/dist) with its production flags. ${clients} clients for ${duration} s per row, on 5 shared app users: a
redemption is \`exchange/make\` of a 1-coin VIP item; an order is \`order/make\` + an operator's \`order/pay\`; a
notification is \`order/make\` + a signed Alipay or WeChat Pay notification (in turn). Calls are HTTP requests;
operations/s are per kind (redeem / order / notify). A 503 is resent with the same Idempotency-Key.

| run | calls/s | operations/s (redeem / order / notify) | HTTP 500 | 503 resent | other errors | alone ÷ mix |
|---|---|---|---|---|---|---|
${rows.join('\n')}

After all four runs: ${problems.length === 0 ? "every acknowledged write present once, every balance equal to its ledger, each user's VIP records a chain, the kept counters equal to counts" : `**${problems.length} problems**: ${problems.slice(0, 5).join('; ')}`}.
`;
  writeFileSync(out, text);
  console.log(text);
} finally {
  await db.destroy();
  await stop(child);
  rmSync(dataDir, { recursive: true, force: true });
  const drop = new pg.Client({ connectionString: adminUrl });
  await drop.connect();
  await drop.query(`drop database if exists ${name} with (force)`);
  await drop.end();
}
