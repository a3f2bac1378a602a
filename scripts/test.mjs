// `npm test`: lint, type-check, build, unit + API tests (SQLite; with TEST_DATABASE_URL also on
// PostgreSQL, and the files where it matters behind nginx on two instances on PostgreSQL + S3), then
// the end-to-end suite in Chromium against the built product (with TEST_DATABASE_URL also, side by
// side, the specs where it matters through nginx), then (CI) a smoke of the API on Node 22 and 24.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBrowser, ensureBuilt, ensureInstalled, mustRun, root, run } from './lib.mjs';
import { apiSuiteOn } from './other-node.mjs';
import { ensureSqliteBinding } from './sqlite-binding.mjs';

ensureInstalled();
ensureSqliteBinding();
const reports = mkdtempSync(path.join(tmpdir(), 'appdesk-test-'));
const started = Date.now();

console.log('▸ 代码检查（Biome）与类型检查（TypeScript）');
mustRun('npx', ['biome', 'check', '.']);
mustRun('npx', ['tsc', '-p', 'tsconfig.json']);

const cluster = Boolean(process.env.TEST_DATABASE_URL);
if (cluster && run('sh', ['-c', 'command -v nginx && command -v radosgw'], { stdio: 'ignore' }) !== 0) {
  console.error('缺少 nginx 或 radosgw：请先运行 .ci/run（会自动安装）');
  process.exit(1);
}
ensureBrowser();
// The build first: the cross-instance test (api-cluster) and the end-to-end runs start the built server.
ensureBuilt({ force: true });
const times = [];
const phase = (name, from) => times.push(`${name} ${Math.round((Date.now() - from) / 1000)} s`);
phase('检查与构建', started);

// With TEST_DATABASE_URL (as in CI) api-postgres runs beside api-sqlite, and (unless TEST_CLUSTER=0)
// api-cluster: the whole API suite again with every test server two instances on one PostgreSQL
// schema and one S3 store (radosgw) behind a private nginx, plus packages/server/test/cluster.test.ts
// (CLUSTER_TEST=1) on two built instances.
console.log(`▸ 单元与接口测试（SQLite${cluster ? ' + PostgreSQL + nginx 后的两个实例（PostgreSQL + S3）' : ''}）`);
const vitestStarted = Date.now();
const vitestReport = path.join(reports, 'vitest.json');
const vitestStatus = run(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  { env: { ...process.env, CLUSTER_TEST: cluster ? '1' : '' } },
);
phase('接口测试', vitestStarted);

// The end-to-end suite on SQLite and, with TEST_DATABASE_URL, side by side, the specs where two
// instances behind nginx on PostgreSQL + S3 change what the browser sees (E2E_CLUSTER_SPECS=all for
// every spec, or a list of its own). Not the whole suite again (beside the SQLite run that made the
// phase 1,197 s in a CI of 2,873 s): the other pages make the same calls to the same API, which
// api-postgres and api-cluster cover. Kept: the
// spine (sets the site up; sign-in, settings, every menu page), sessions (sign-in and its reset, an
// operator's sessions signed out, users blocked), remote config, uploads and media served from S3
// (upload, image library, sound effects, packages and releases), an export, and a second app.
const clusterSpecs = [
  'spine.spec.ts',
  'users-sign-in.spec.ts',
  'users.spec.ts',
  'account.e2e.ts',
  'a11t.e2e.ts',
  'upload.e2e.ts',
  'unsplash.e2e.ts',
  'soundeffect.e2e.ts',
  'version.e2e.ts',
  'exchangerecord.e2e.ts',
  // Apps as data: the second app registered in the console and independent of the first, on PostgreSQL too.
  'apps.e2e.ts',
];
const clusterSpecsChosen = process.env.E2E_CLUSTER_SPECS ?? clusterSpecs.join(',');
console.log(`▸ 端到端测试（Playwright + Chromium${cluster ? '；SQLite 全部与 nginx 集群部分同时运行' : ''}）`);
const e2eStarted = Date.now();
const e2eReport = path.join(reports, 'e2e.json');
const clusterE2eReport = path.join(reports, 'e2e-cluster.json');
const runs = [
  // Two browsers side by side on SQLite (the spine first, the site-wide counts last: playwright.config.ts).
  playwright('', [], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport, E2E_WORKERS: process.env.E2E_WORKERS ?? '2' }),
  ...(cluster
    ? [
        playwright(
          '[集群] ',
          clusterSpecsChosen === 'all' ? [] : clusterSpecsChosen.split(','),
          {
            E2E_TOPOLOGY: 'cluster',
            E2E_PORT: process.env.E2E_CLUSTER_PORT ?? '8941',
            PLAYWRIGHT_JSON_OUTPUT_NAME: clusterE2eReport,
          },
          // Its own output folder: Playwright empties its folder at the start, which took the
          // other run's traces from under it.
          ['--output', 'e2e/test-results-cluster'],
        ),
      ]
    : []),
];
const [e2eStatus, clusterStatus = 0] = await Promise.all(runs);
phase('端到端测试', e2eStarted);

/** One Playwright run; its output lines prefixed when it runs beside another. */
function playwright(label, specs, env, options = []) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...options, ...specs], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      from.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) to.write(`${label}${line}\n`);
      });
      from.on('end', () => rest && to.write(`${label}${rest}\n`));
    }
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

// With TEST_DATABASE_URL (CI), after the end-to-end runs (better-sqlite3 is swapped for the run): a
// smoke of the API on Node 22 and 24, the other supported majors. What differs there is the native
// module (built for that Node's ABI; on 24 it used to abort the process when V8 collected a statement)
// and the runtime under the server (fetch, crypto, streams); the handlers' logic does not change with
// the Node major, so the whole suite twice more (896 s of a CI of 2,873 s) checked nothing new. The smoke:
// SQLite's own tests (its pool of worker threads, the writer's turn, compiled point reads, settings,
// migrations from empty), a server's whole life (sign-up, sign-in, sessions, uploads, shutdown) and a
// backup, on SQLite and on PostgreSQL.
const smokeFiles = [
  'packages/server/test/sqlite-settings.test.ts',
  'packages/server/test/sqlite-writer-turn.test.ts',
  'packages/server/test/compiled.test.ts',
  'packages/server/test/migrations.test.ts',
  'packages/server/test/users.test.ts',
  'packages/server/test/idle-session.test.ts',
  'packages/server/test/upload-ownership.test.ts',
  'packages/server/src/ops/shutdown.test.ts',
  'packages/server/src/ops/backup.test.ts',
];
const otherNodes = cluster
  ? ['22', '24'].map((major) => ({ major, projects: ['api-sqlite', 'api-postgres'], files: smokeFiles }))
  : [];
const otherReports = [];
let otherStatus = 0;
if (otherNodes.length > 0 && process.env.TEST_OTHER_NODES !== '0') {
  const otherStarted = Date.now();
  for (const { major, projects, files } of otherNodes) {
    console.log(`▸ 接口冒烟测试（Node ${major}：${projects.join('、')}）`);
    const report = path.join(reports, `vitest-node${major}.json`);
    otherReports.push(report);
    otherStatus ||= apiSuiteOn(major, projects, report, files);
  }
  phase('Node 22、24 接口冒烟测试', otherStarted);
}

// The summary ends the output, since CI may keep only its tail: the counts, then each failed
// test by name and each run that ended badly without a failed test to show for it.
let passed = 0;
let failed = 0;
/** Each failed test as `{ report, line }`, so a run's failures are found by its reports. */
const failures = [];
for (const report of [vitestReport, ...otherReports]) {
  if (!existsSync(report)) continue;
  const v = JSON.parse(readFileSync(report, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  for (const file of v.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === 'failed')
        failures.push({
          report,
          line: `${path.basename(report)}: ${path.relative(root, file.name)} › ${test.fullName}`,
        });
    }
  }
}
for (const report of [e2eReport, clusterE2eReport]) {
  if (!existsSync(report)) continue;
  const e = JSON.parse(readFileSync(report, 'utf8'));
  passed += e.stats.expected + e.stats.flaky;
  failed += e.stats.unexpected;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status === 'unexpected')
          failures.push({ report, line: `${path.basename(report)}: ${[...titles, spec.title].join(' › ')}` });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of e.suites ?? []) walk(suite, [suite.title]);
}
const endings = [
  ['单元与接口测试', vitestStatus, [vitestReport]],
  ['端到端测试（SQLite）', e2eStatus, [e2eReport]],
  ['端到端测试（集群）', clusterStatus, [clusterE2eReport]],
  ['Node 22、24 接口测试', otherStatus, otherReports],
];
for (const [name, status, reportsOfRun] of endings) {
  if (status === 0) continue;
  if (!failures.some(({ report }) => reportsOfRun.includes(report))) {
    failures.push({
      report: null,
      line: `${name}：退出码 ${status}，没有失败的测试可列（未能启动或收尾出错，见上文）`,
    });
  }
}
if (failures.length > 0) failed = Math.max(failed, 1);
console.log(`\n全部测试用时 ${Math.round((Date.now() - started) / 1000)} 秒（${times.join('，')}）`);
for (const { line } of failures) console.log(`✘ ${line}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
