/**
 * Makes the upgrade test's fixtures (test/upgrade/fixtures/) with the PREVIOUS release's own server,
 * migrations and backup command: a representative site filled through that release's HTTP API, on
 * SQLite and on PostgreSQL, with the answers it gave to the app's calls. See docs/testing.md#the-upgrade-test.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx packages/server/test/upgrade/make-fixture.ts
 *
 * PREVIOUS_RELEASE (a commit, default below) picks the release; it is unpacked with `git archive`
 * into a throwaway folder beside this checkout's node_modules (hard links) and its server built there.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { freePort } from '../free-port';
import { makePaymentKeys } from '../payment-signers';
import { makeTestChain } from '../storekit-chain';
import { fill, record } from './fill-site';
import { FIXTURES, type FixtureEnv } from './upgrade-common';

const RELEASE = process.env.PREVIOUS_RELEASE || '4841853';
const root = path.resolve(import.meta.dirname, '../../../..');
const pgUrl = process.env.TEST_DATABASE_URL ?? '';
if (!pgUrl) throw new Error('TEST_DATABASE_URL (a PostgreSQL the maker may create a database in) is required');

/** The previous release, unpacked and its server built, in a folder of its own. */
function previousRelease(): string {
  const dir = path.join(tmpdir(), `appdesk-release-${RELEASE}`);
  if (existsSync(path.join(dir, 'packages/server/dist/main.js'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive ${RELEASE} | tar -x -C "${dir}"`], { stdio: 'inherit' });
  // Hard links: the same installed packages, no download, no second copy on disk.
  execFileSync('cp', ['-al', path.join(root, 'node_modules'), path.join(dir, 'node_modules')]);
  const serverModules = path.join(root, 'packages/server/node_modules');
  if (existsSync(serverModules)) execFileSync('cp', ['-al', serverModules, path.join(dir, 'packages/server/')]);
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(dir, 'packages/server'), stdio: 'inherit' });
  return dir;
}

interface Running {
  url: string;
  stop(): Promise<void>;
}

async function startPrevious(release: string, env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(release, 'packages/server/dist/main.js')], {
    cwd: release,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`the previous release's server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (tries > 600) throw new Error('the previous release did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main() {
  // Before any session exists: the test moves sessions forward by the fixture's age from here.
  const madeAt = Date.now();
  const release = previousRelease();
  const chain = makeTestChain();
  const payment = makePaymentKeys();
  mkdirSync(FIXTURES, { recursive: true });
  for (const name of readdirSync(FIXTURES)) rmSync(path.join(FIXTURES, name), { recursive: true });
  writeFileSync(path.join(FIXTURES, 'apple-root.der'), chain.rootDer);
  const env = {
    APPLE_BUNDLE_ID: 'com.appdesk.tailor',
    APPLE_APP_APPLE_ID: '1234567890',
    APPLE_ENVIRONMENTS: 'Sandbox',
    // A path: the test resolves it against the fixtures folder.
    APPLE_ROOT_CERTIFICATES: 'apple-root.der',
    ALIPAY_APP_ID: payment.alipayAppId,
    ALIPAY_PUBLIC_KEY: payment.alipayPublicKey,
  };
  const keys: FixtureEnv['keys'] = { alipay: payment, storekit: chain.material };
  const runEnv = { ...env, APPLE_ROOT_CERTIFICATES: path.join(FIXTURES, 'apple-root.der') };
  const recorded: Partial<FixtureEnv['sites']> = {};
  const work = mkdtempSync(path.join(tmpdir(), 'appdesk-fixture-'));
  const pgAdmin = new pg.Client({ connectionString: pgUrl });
  await pgAdmin.connect();
  const database = `appdesk_fixture_${randomBytes(4).toString('hex')}`;
  try {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const dataDir = path.join(work, dialect);
      const databaseUrl =
        dialect === 'postgres' ? Object.assign(new URL(pgUrl), { pathname: `/${database}` }).href : '';
      if (dialect === 'postgres') await pgAdmin.query(`create database ${database}`);
      const siteEnv = { ...runEnv, DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
      const server = await startPrevious(release, siteEnv);
      try {
        const { tokens, refs } = await fill(server.url, runEnv, keys);
        recorded[dialect] = { tokens, calls: await record(server.url, tokens, refs) };
      } finally {
        await server.stop();
      }
      // The release's own backup command, on the stopped site.
      const backups = path.join(work, `${dialect}-backups`);
      execFileSync(process.execPath, [path.join(release, 'packages/server/dist/main.js'), 'backup', backups], {
        cwd: release,
        env: { ...process.env, ...siteEnv, LOG_LEVEL: 'warn' },
        stdio: 'inherit',
      });
      const [archive] = readdirSync(backups);
      cpSync(path.join(backups, archive), path.join(FIXTURES, `${dialect}-backup.tar.gz`));
      // The data folder: on SQLite the database and the files, on PostgreSQL the files.
      execFileSync('tar', [
        '-czf',
        path.join(FIXTURES, `${dialect}-data.tar.gz`),
        '--exclude=./tmp',
        '-C',
        dataDir,
        '.',
      ]);
      if (dialect === 'postgres') {
        const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--inserts', '--dbname', databaseUrl], {
          maxBuffer: 256 * 1024 * 1024,
        });
        writeFileSync(path.join(FIXTURES, 'postgres-dump.sql.gz'), gzipSync(dump, { level: 9 }));
      }
    }
  } finally {
    await pgAdmin.query(`drop database if exists ${database}`);
    await pgAdmin.end();
    rmSync(work, { recursive: true, force: true });
  }
  const fixture: FixtureEnv = {
    release: RELEASE,
    madeAt,
    env,
    keys,
    sites: recorded as FixtureEnv['sites'],
  };
  const answers = path.join(FIXTURES, 'site.json');
  writeFileSync(answers, `${JSON.stringify(fixture, null, 2)}\n`);
  // In the repository's own format, so `biome check .` stays clean after a remake.
  execFileSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', answers], { stdio: 'ignore' });
  console.log(`fixtures of release ${RELEASE} written to ${FIXTURES}`);
}

await main();
