// One command for the whole benchmark: npm run bench [-w @appdesk/bench -- --only api|web --users N ...]
// See bench/README.md.
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, callOk } from './lib/api';
import { appsOf, prepareAppData } from './lib/app-data';
import { assertKnown, intFlag, parseArgs, stringFlag } from './lib/args';
import { admin, seededPassword, sha256hex } from './lib/fixtures';
import type { LoadContext, ScenarioResult } from './lib/load';
import { pathsTaking } from './lib/openapi';
import { connectionOf } from './lib/postgres-url';
import { type Child, freePort, onExit, runToEnd, start, stop, stopAll, waitUntil } from './lib/processes';
import {
  type ApiSection,
  apiText,
  gitRevision,
  machine,
  textTable,
  type WebSection,
  webText,
  writeResults,
} from './lib/report';
import { type DatabaseRun, runInterleaved } from './lib/rounds';
import { seed, seedDefaults } from './lib/seed';
import { type PostgresSeed, seedPostgres } from './lib/seed-postgres';
import { loginPhones, seededNicknames, seededSizes, signInUsers } from './lib/seeded';
import { startSeededServer } from './lib/server';
import { measureWeb } from './lib/web';
import { scenarios, withAppFilter } from './scenarios';

const benchDir = import.meta.dirname;
const root = path.resolve(benchDir, '..');
const webDir = path.join(root, 'packages/web');
const webIndex = path.join(webDir, 'dist/index.html');
const resultsDir = path.join(benchDir, 'results');

const known = [
  'only',
  'users',
  'coin-records',
  'messages',
  'audit-log',
  'duration',
  'warmup',
  'lighthouse-runs',
  'keep-data',
  'strict',
  'postgres',
  'from',
  'from-postgres',
  'only-scenarios',
  'rounds',
  'server-root',
];
const flags = parseArgs(process.argv.slice(2));
assertKnown(flags, known);
// --server-root DIR: the server built in another checkout (the previous release in a worktree, say)
// measured by this harness on data that checkout seeded; it is used as built there.
const serverRootFlag = stringFlag(flags, 'server-root');
const serverRoot = serverRootFlag ? path.resolve(process.env.INIT_CWD ?? process.cwd(), serverRootFlag) : root;
const serverEntry = path.join(serverRoot, 'packages/server/dist/main.js');
const only = stringFlag(flags, 'only') ?? 'all';
if (!['all', 'api', 'web'].includes(only)) throw new Error('--only must be api or web');
const settings = {
  users: intFlag(flags, 'users', seedDefaults.users),
  coinRecords: intFlag(flags, 'coin-records', seedDefaults.coinRecords),
  messages: intFlag(flags, 'messages', seedDefaults.messages),
  auditLog: intFlag(flags, 'audit-log', seedDefaults.auditLog),
  durationSeconds: intFlag(flags, 'duration', 10),
  warmupSeconds: intFlag(flags, 'warmup', 2),
  rounds: intFlag(flags, 'rounds', 1),
};
const lighthouseRuns = intFlag(flags, 'lighthouse-runs', 3);
// PostgreSQL is measured beside SQLite in every API run; `--postgres none` skips it.
const postgresUrl =
  stringFlag(flags, 'postgres') ??
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
// Measuring again without seeding: --from DIR (a folder `npm run seed` filled) and --from-postgres
// URL (a database `npm run pg-copy -w @appdesk/bench` kept); --only-scenarios a,b picks scenarios by name prefix.
const fromDir = stringFlag(flags, 'from');
const fromPostgres = stringFlag(flags, 'from-postgres');
const onlyScenarios = stringFlag(flags, 'only-scenarios')?.split(',');
const wantApi = only !== 'web';
const wantWeb = only !== 'api';
if (settings.durationSeconds < 1 || settings.durationSeconds > 600) throw new Error('--duration must be 1..600 s');
if (settings.warmupSeconds > 60) throw new Error('--warmup must be at most 60 s');
if (settings.rounds < 1 || settings.rounds > 9) throw new Error('--rounds must be 1..9');
if (lighthouseRuns > 9) throw new Error('--lighthouse-runs must be at most 9');

const log = (line: string) => console.log(line);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Newest modification time of the files under `dirs` (bounded walk). */
function newestMtime(dirs: string[]): number {
  let newest = 0;
  let budget = 20_000;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (--budget < 0) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return newest;
}

/**
 * Builds what is missing; returns why the web part cannot run, if it cannot. A server bundle
 * older than its sources is rebuilt too (esbuild, a second): the seed migrates with the sources,
 * and a server that lacks one of their migrations refuses to start.
 */
async function ensureBuilt(): Promise<string | null> {
  if (wantWeb && !existsSync(webIndex)) {
    const pkg = JSON.parse(readFileSync(path.join(webDir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    if (!pkg.scripts?.build || !existsSync(path.join(webDir, 'index.html')))
      return 'web not built (no web app to build)';
    log('web app not built: npm run build -w @appdesk/web');
    try {
      await runToEnd('web build', npm, ['run', 'build', '-w', '@appdesk/web'], root);
    } catch (error) {
      return `web not built (the build failed: ${(error as Error).message})`;
    }
    if (!existsSync(webIndex)) return 'web not built (the build wrote no dist/index.html)';
  } else if (wantWeb && newestMtime([path.join(webDir, 'src')]) > statSync(webIndex).mtimeMs) {
    log('note: packages/web/dist is older than packages/web/src; measuring the built app as it is');
  }
  const serverSources = [path.join(root, 'packages/server/src'), path.join(root, 'packages/contract/src')];
  if (serverRoot !== root) {
    if (!existsSync(serverEntry)) throw new Error(`${serverEntry} missing: build the server in ${serverRoot}`);
  } else if (!existsSync(serverEntry)) {
    log('server not built: npm run build -w @appdesk/server');
    await runToEnd('server build', npm, ['run', 'build', '-w', '@appdesk/server'], root);
  } else if (newestMtime(serverSources) > statSync(serverEntry).mtimeMs) {
    log('server bundle older than its sources: npm run build -w @appdesk/server');
    try {
      await runToEnd('server build', npm, ['run', 'build', '-w', '@appdesk/server'], root);
    } catch (error) {
      log(`server build failed (${(error as Error).message}); using the existing bundle`);
    }
  }
  return null;
}

async function startBaseline(): Promise<{ child: Child; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = start('baseline', process.execPath, [path.join(benchDir, 'baseline-server.mjs')], {
    env: { ...process.env, PORT: String(port) },
    cwd: benchDir,
  });
  await waitUntil(child, async () => {
    if ((await call(base, '/api/baseline')).code !== 200) throw new Error('baseline not ready');
    return true;
  });
  return { child, base };
}

/** Signs users in and prepares app data on one server; the baseline scenario only with the first database. */
async function prepareTarget(
  database: 'sqlite' | 'postgres',
  server: { child: Child; base: string },
  adminToken: string,
  baseline: { child: Child; base: string } | null,
  phones: string[],
  nicknames: string[],
): Promise<DatabaseRun> {
  const ctx: LoadContext = {
    urls: { server: server.base, baseline: baseline?.base ?? '' },
    pids: { server: server.child.pid, baseline: baseline?.child.pid ?? 0 },
    adminToken,
    userTokens: await signInUsers(server.base, phones.slice(0, 100)),
    durationSeconds: settings.durationSeconds,
    warmupSeconds: settings.warmupSeconds,
    database,
  };
  // Every app the data set has (two since issue 29) gets the same releases and config.
  const apps = await appsOf(server.base);
  const appData = await prepareAppData(server.base, adminToken, apps, log);
  const takesApp = await pathsTaking(server.base, 'app');
  // Without seeded users, the login scenario signs the admin in.
  const list = withAppFilter(
    phones.length > 0
      ? scenarios({ loginPhones: phones, password: seededPassword, nicknames, appData })
      : scenarios({ loginPhones: [admin.phone], password: admin.password, appData }),
    (p) => takesApp.has(p),
  )
    .filter((scenario) => baseline !== null || scenario.target !== 'baseline')
    .filter(
      (scenario) =>
        !onlyScenarios ||
        scenario.target === 'baseline' ||
        onlyScenarios.some((name) => scenario.name.startsWith(name)),
    );
  return { database, ctx, list };
}

async function main(): Promise<number> {
  const mach = machine();
  const git = gitRevision(serverRoot);
  log(`AppDesk bench: ${only === 'all' ? 'API + web' : only}; ${mach.cpus} CPU ${mach.cpuModel}, Node ${mach.node}`);
  const webSkip = await ensureBuilt();

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'appdesk-bench-'));
  const removeData = () => {
    if (!flags.has('keep-data')) rmSync(dataDir, { recursive: true, force: true });
  };
  const undoRemove = onExit(removeData); // also when interrupted
  let api: ApiSection | null = null;
  let web: WebSection | null = null;
  try {
    let seedReport = null;
    let phones: string[] = [];
    let nicknames: string[] = [];
    if (wantApi && fromDir) {
      // A data set seeded earlier (npm run seed): measured on a copy, so the seeded folder stays unused.
      log(`copying ${fromDir} to ${dataDir}`);
      copyFileSync(path.join(fromDir, 'appdesk.sqlite'), path.join(dataDir, 'appdesk.sqlite'));
      // Written out before measuring: the kernel flushing a 1.4 GB copy under the first scenarios
      // cut the baseline to a third and SQLite's first list page to a quarter of their rates.
      const copied = openSync(path.join(dataDir, 'appdesk.sqlite'), 'r+');
      fsyncSync(copied);
      closeSync(copied);
      phones = loginPhones(dataDir);
      nicknames = seededNicknames(dataDir);
      Object.assign(settings, seededSizes(dataDir));
    } else if (wantApi) {
      log(`seeding ${dataDir}`);
      seedReport = await seed({ dataDir, ...settings, log });
      phones = loginPhones(dataDir);
      nicknames = seededNicknames(dataDir);
    }

    const server = await startSeededServer(dataDir, { log, serverRoot });
    log(`server pid ${server.child.pid} on ${server.base}`);
    const setUp = {
      phone: admin.phone,
      password: sha256hex(admin.password),
      title: admin.title,
      slogen: admin.slogen,
    };
    // A folder measured before (--from) may already have its admin.
    if (fromDir) await call(server.base, '/api/allocation/init', setUp);
    else await callOk(server.base, '/api/allocation/init', setUp);
    const { token } = await callOk(server.base, '/api/users/login', {
      phone: admin.phone,
      password: sha256hex(admin.password),
    });

    if (wantApi) {
      const baseline = await startBaseline();
      log(`baseline pid ${baseline.child.pid} on ${baseline.base}`);
      const results: ScenarioResult[] = [];
      const failed: { name: string; error: string }[] = [];
      const targets = [await prepareTarget('sqlite', server, token, baseline, phones, nicknames)];
      let postgresSeed: PostgresSeed | null = null;
      if (fromPostgres) {
        // A database copied earlier (npm run pg-copy), kept after the run; its admin is made on first use.
        postgresSeed = { url: fromPostgres, phases: [], totalSeconds: 0, drop: async () => {} };
      } else if (postgresUrl !== 'none') {
        try {
          log(`seeding PostgreSQL from the same data (${connectionOf(postgresUrl)})`);
          postgresSeed = await seedPostgres({
            sqliteFile: path.join(dataDir, 'appdesk.sqlite'),
            adminUrl: postgresUrl,
            log,
          });
        } catch (error) {
          log(`PostgreSQL skipped: ${(error as Error).message}`);
          failed.push({ name: 'postgres', error: `not measured: ${(error as Error).message}` });
        }
      }
      let onPostgres: { child: Child; base: string } | null = null;
      if (postgresSeed) {
        onPostgres = await startSeededServer(dataDir, { databaseUrl: postgresSeed.url, log, serverRoot });
        log(`server on PostgreSQL pid ${onPostgres.child.pid} on ${onPostgres.base}`);
        if (fromPostgres) await call(onPostgres.base, '/api/allocation/init', setUp);
        const { token: pgToken } = await callOk(onPostgres.base, '/api/users/login', {
          phone: admin.phone,
          password: sha256hex(admin.password),
        });
        targets.push(await prepareTarget('postgres', onPostgres, pgToken, null, phones, nicknames));
      }
      await runInterleaved(targets, settings.rounds, results, failed, log);
      await stop(baseline.child);
      if (onPostgres) await stop(onPostgres.child);
      await postgresSeed?.drop();
      api = {
        date: new Date().toISOString(),
        git,
        machine: mach,
        settings,
        postgresConnection: postgresSeed ? connectionOf(postgresSeed.url) : null,
        seed: seedReport && {
          ...seedReport,
          phases: [...seedReport.phases, ...(postgresSeed?.phases ?? [])],
        },
        scenarios: results,
        failed,
      };
    }

    if (wantWeb) {
      const date = new Date().toISOString();
      if (webSkip) {
        web = { date, git, machine: mach, status: 'skipped', reason: webSkip, pages: [] };
      } else {
        log('web: Chromium page loads and Lighthouse');
        try {
          const pages = await measureWeb(server.base, {
            lighthouseRuns,
            reportDir: path.join(resultsDir, 'lighthouse'),
            log,
          });
          web = { date, git, machine: mach, status: 'measured', pages };
        } catch (error) {
          // Keep the API figures: report the web part as failed rather than losing the run.
          log(`web failed: ${(error as Error).message}`);
          web = { date, git, machine: mach, status: 'failed', reason: (error as Error).message, pages: [] };
        }
      }
    }
    await stop(server.child);
    const serverLog = server.child.output().trim();
    if (serverLog)
      log(`server logged at warn level or above (last lines):\n${serverLog.split('\n').slice(-10).join('\n')}`);
  } finally {
    await stopAll();
    removeData();
    undoRemove();
    if (flags.has('keep-data')) log(`data kept in ${dataDir}`);
  }

  writeResults(resultsDir, { api, web });
  log('');
  if (api?.seed) {
    log(
      textTable(
        ['seed', 'rows', 'seconds', 'rows/s'],
        api.seed.phases.map((p) => [
          p.phase,
          p.rows.toLocaleString('en-US'),
          p.seconds.toFixed(2),
          Math.round(p.rowsPerSecond).toLocaleString('en-US'),
        ]),
      ),
    );
    log('');
  }
  if (api) log(`${apiText(api)}\n`);
  if (web) log(`${webText(web)}\n`);
  log(`written: ${path.relative(root, path.join(resultsDir, 'latest.json'))}, latest.md`);
  if ((api?.failed.length ?? 0) > 0) return 1;
  const failed = web?.status === 'failed' || (web?.pages.some((p) => p.budgets.some((b) => !b.pass)) ?? false);
  return failed && flags.has('strict') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await stopAll();
    process.exit(1);
  },
);
