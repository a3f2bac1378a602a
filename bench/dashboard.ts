/**
 * The dashboard benchmark (issue 11): the statistics cards and the charts over 1,000,000 users,
 * 200,000 orders and 5,000,000 ledger rows, at concurrency 10, on SQLite and on PostgreSQL.
 * Writes bench/results/dashboard.md. Run it under /work/tools/bench-quiet (or on a quiet machine):
 *
 *   npm run dashboard -w @appdesk/bench [-- --users 1000000 --coin-records 5000000 --orders 200000
 *     --duration 10 --warmup 2 --postgres postgres://postgres@127.0.0.1:5432/postgres | none]
 *
 * Steps: the users and their ledgers are seeded into SQLite (bench/lib/seed.ts), which is then
 * migrated with every feature's migrations (the dashboard's rolls the counters up from those rows)
 * before the orders and redemptions are inserted through the tables' triggers (lib/orders-seed.ts).
 * PostgreSQL gets the same rows with COPY, triggers off (seed-postgres.ts), and its counters rolled
 * up afterwards by the statements the migration runs (counters.ts rollUpSql). Each server then
 * serves the endpoints to autocannon. Beside the HTTP figures (mostly kept answers: both are kept
 * up to 60 s), the cards' and the year charts' own computation, what a request pays when nothing
 * is kept, is timed straight against each database, 10 at a time.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../packages/server/src/db/index';
import type { Migration } from '../packages/server/src/db/migrations/index';
import { chartFigures } from '../packages/server/src/features/dashboard/charts';
import { rollUpSql } from '../packages/server/src/features/dashboard/counters';
import { cardFigures } from '../packages/server/src/features/dashboard/queries';
import { assertKnown, intFlag, parseArgs, stringFlag } from './lib/args';
import { featureReport, setUpSite } from './lib/feature-run';
import { type LoadContext, runScenario, type Scenario, type ScenarioResult } from './lib/load';
import { seedCommerceSqlite } from './lib/orders-seed';
import { type Child, stop } from './lib/processes';
import { seed } from './lib/seed';
import { seedPostgres } from './lib/seed-postgres';
import { startSeededServer } from './lib/server';

const flags = parseArgs(process.argv.slice(2));
assertKnown(flags, ['users', 'coin-records', 'orders', 'records', 'duration', 'warmup', 'postgres']);
const sizes = {
  users: intFlag(flags, 'users', 1_000_000),
  coinRecords: intFlag(flags, 'coin-records', 5_000_000),
  orders: intFlag(flags, 'orders', 200_000),
  records: intFlag(flags, 'records', 50_000),
};
const duration = intFlag(flags, 'duration', 10);
const warmup = intFlag(flags, 'warmup', 2);
const postgresUrl = stringFlag(flags, 'postgres') ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(import.meta.dirname, '..');
const log = (line: string) => console.log(line);

const scenarios: Scenario[] = [
  {
    name: 'dashboard/fetch/cards',
    measures: 'the 12 cards with their previous periods (kept up to 60 s; counters, kept counts, index ranges)',
    target: 'server',
    path: '/api/dashboard/fetch/cards',
    body: {},
    token: 'admin',
  },
  ...(['today', 'week', 'month', 'year'] as const).map((range) => ({
    name: `dashboard/fetch/charts ${range}`,
    measures: `the charts of ${range} (kept up to 60 s; computed from the counters)`,
    target: 'server' as const,
    path: '/api/dashboard/fetch/charts',
    body: { range },
    token: 'admin' as const,
  })),
];

/** Every migration the server runs (its app.ts finds the features' with import.meta.glob). */
async function migrateAll(handle: DatabaseHandle) {
  const features = path.join(root, 'packages/server/src/features');
  const featureMigrations: Migration[] = [];
  for (const feature of readdirSync(features).sort()) {
    const dir = path.join(features, feature, 'migrations');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const m = (await import(path.join(dir, file))) as Pick<Migration, 'up'>;
      featureMigrations.push({ name: path.basename(file, '.ts'), up: m.up });
    }
  }
  await migrateToLatest(handle, featureMigrations);
}

/**
 * Times a computation itself with nothing kept (what a request pays every 60 s or on 刷新):
 * `total` runs at concurrency 10, straight against the database.
 */
async function cold(
  options: { dataDir: string; databaseUrl?: string },
  compute: (db: DatabaseHandle['db']) => Promise<unknown>,
  total = 200,
) {
  const handle = openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  try {
    await compute(handle.db); // connections and statements warmed
    const samples: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < total) {
        next++;
        const began = performance.now();
        await compute(handle.db);
        samples.push(performance.now() - began);
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    samples.sort((a, b) => a - b);
    const at = (p: number) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)];
    return { p50: at(50), p95: at(95), p99: at(99) };
  } finally {
    await handle.close();
  }
}

/** The cold rows of a database: the cards and the year's charts. */
async function coldRows(label: string, options: { dataDir: string; databaseUrl?: string }) {
  const row = (what: string, t: { p50: number; p95: number; p99: number }) =>
    `| ${what} | ${label} | ${t.p50.toFixed(2)} | ${t.p95.toFixed(2)} | ${t.p99.toFixed(2)} |`;
  const cards = await cold(options, (db) => cardFigures(db, Date.now()));
  log(`  ${label} cards cold: p95 ${cards.p95.toFixed(2)} ms`);
  const year = await cold(options, (db) => chartFigures(db, 'year', Date.now()));
  log(`  ${label} year charts cold: p95 ${year.p95.toFixed(2)} ms`);
  return [row('cards computed, nothing kept', cards), row('year charts computed, nothing kept', year)];
}

async function measure(database: 'sqlite' | 'postgres', server: { child: Child; base: string }, token: string) {
  const ctx: LoadContext = {
    urls: { server: server.base, baseline: server.base },
    pids: { server: server.child.pid, baseline: server.child.pid },
    adminToken: token,
    userTokens: [],
    durationSeconds: duration,
    warmupSeconds: warmup,
    database,
  };
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    const r = {
      ...(await runScenario(s, ctx)),
      database,
      name: `${s.name} (${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
    };
    r.ratioToBaseline = null;
    log(
      `  ${r.name}: ${Math.round(r.rps)} req/s, p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms, bad ${r.bad.total}`,
    );
    results.push(r);
  }
  return results;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-dashboard-'));
const notes: string[] = [];
const results: ScenarioResult[] = [];
const coldTable: string[] = [];
let postgres: Awaited<ReturnType<typeof seedPostgres>> | null = null;
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
try {
  let began = performance.now();
  const sqliteFile = path.join(dataDir, 'appdesk.sqlite');
  log(`seeding ${sizes.users} users and ${sizes.coinRecords} ledger rows into SQLite`);
  await seed({ dataDir, users: sizes.users, coinRecords: sizes.coinRecords, messages: 0, auditLog: 0, log });
  notes.push(`- seeding: users and ledger ${seconds(began)} s (SQLite)`);
  began = performance.now();
  const sqlite = openDatabase({ dataDir });
  try {
    await migrateAll(sqlite);
  } finally {
    await sqlite.close();
  }
  notes.push(
    `- every migration on SQLite (the dashboard's rolls the counters up from those rows): ${seconds(began)} s`,
  );
  began = performance.now();
  seedCommerceSqlite(sqliteFile, { ...sizes });
  notes.push(
    `- ${sizes.orders.toLocaleString('en-US')} orders and ${sizes.records.toLocaleString('en-US')} redemptions inserted through the triggers in ${seconds(began)} s (SQLite)`,
  );
  if (postgresUrl !== 'none') {
    began = performance.now();
    let rolled = '';
    postgres = await seedPostgres({
      sqliteFile,
      adminUrl: postgresUrl,
      log,
      moreTables: ['plans', 'orders', 'exchange_items', 'exchange_records'],
      migrate: migrateAll,
      afterCopy: async (client) => {
        const since = performance.now();
        for (const statement of rollUpSql('postgres')) await client.query(statement);
        rolled = seconds(since);
        log(`  counters rolled up in ${rolled} s`);
      },
    });
    notes.push(
      `- the same rows copied to PostgreSQL with COPY, triggers off, in ${seconds(began)} s; its counters then rolled up by the migration's statements in ${rolled} s`,
    );
  }

  log('SQLite: measure');
  let server = await startSeededServer(dataDir, { log });
  try {
    results.push(...(await measure('sqlite', server, await setUpSite(server.child, server.base))));
  } finally {
    await stop(server.child);
  }
  coldTable.push(...(await coldRows('SQLite', { dataDir })));

  if (postgres) {
    log('PostgreSQL: measure');
    server = await startSeededServer(dataDir, { databaseUrl: postgres.url, log });
    try {
      results.push(...(await measure('postgres', server, await setUpSite(server.child, server.base))));
    } finally {
      await stop(server.child);
    }
    coldTable.push(...(await coldRows('PostgreSQL', { dataDir, databaseUrl: postgres.url })));
  }

  const text = [
    featureReport({
      title: 'Dashboard benchmark (issue 11): statistics cards and charts',
      root,
      run: `${sizes.users.toLocaleString('en-US')} users, ${sizes.coinRecords.toLocaleString('en-US')} ledger rows, ${sizes.orders.toLocaleString('en-US')} orders, ${sizes.records.toLocaleString('en-US')} redemptions; ${warmup} s warm-up + ${duration} s measured per scenario, 10 connections, one admin token`,
      notes,
      results,
    }).trimEnd(),
    '',
    'The cards and charts are kept up to 60 s per process, so most requests above are answered from memory.',
    'What a request pays when the figures are recomputed (every 60 s, or on 刷新), timed straight against',
    'the database at full scale, 200 computations 10 at a time:',
    '',
    '| measure | database | p50 ms | p95 ms | p99 ms |',
    '| --- | --- | ---: | ---: | ---: |',
    ...coldTable,
    '',
  ].join('\n');
  writeFileSync(path.join(root, 'bench/results/dashboard.md'), text);
  console.log(text);
} finally {
  await postgres?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
