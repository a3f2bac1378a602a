// `npm test`: lint, type-check, unit + API tests (SQLite, and PostgreSQL when TEST_DATABASE_URL
// is set), then the end-to-end suite in Chromium against the built product; with TEST_DATABASE_URL
// also against two instances behind nginx on PostgreSQL + S3.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, mustRun, run } from './lib.mjs';

ensureInstalled();
const reports = mkdtempSync(path.join(tmpdir(), 'appdesk-test-'));
const started = Date.now();

console.log('▸ 代码检查（Biome）与类型检查（TypeScript）');
mustRun('npx', ['biome', 'check', '.']);
mustRun('npx', ['tsc', '-p', 'tsconfig.json']);

console.log(`▸ 单元与接口测试（SQLite${process.env.TEST_DATABASE_URL ? ' + PostgreSQL' : ''}）`);
const vitestReport = path.join(reports, 'vitest.json');
const vitestStatus = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);

console.log('▸ 端到端测试（Playwright + Chromium）');
ensureBuilt({ force: true });
if (!existsSync('/usr/bin/chromium')) {
  console.error('缺少 /usr/bin/chromium：请先运行 apt-get install -y chromium（.ci/run 会自动安装）');
  process.exit(1);
}
const e2eReport = path.join(reports, 'e2e.json');
const e2eStatus = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
});

// With PostgreSQL (as in CI): the same product as two instances behind nginx on one PostgreSQL
// database and one S3 store (radosgw): the cross-instance API test, then the end-to-end suite again.
const clusterVitestReport = path.join(reports, 'vitest-cluster.json');
const clusterE2eReport = path.join(reports, 'e2e-cluster.json');
let clusterStatus = 0;
if (process.env.TEST_DATABASE_URL) {
  console.log('▸ nginx + 两个实例（PostgreSQL + S3）：跨实例接口测试与端到端测试');
  if (run('sh', ['-c', 'command -v nginx && command -v radosgw'], { stdio: 'ignore' }) !== 0) {
    console.error('缺少 nginx 或 radosgw：请先运行 .ci/run（会自动安装）');
    process.exit(1);
  }
  clusterStatus += run(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'api-postgres',
      'packages/server/test/cluster.test.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${clusterVitestReport}`,
    ],
    { env: { ...process.env, CLUSTER_TEST: '1' } },
  );
  // The whole suite again through nginx would double the end-to-end time; by default the specs
  // that set the site up, sign in and upload run there (E2E_CLUSTER_SPECS=all runs every spec).
  const clusterSpecs =
    process.env.E2E_CLUSTER_SPECS === 'all' ? [] : ['e2e/spine.spec.ts', 'e2e/users-sign-in.spec.ts'];
  clusterStatus += run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...clusterSpecs], {
    env: {
      ...process.env,
      E2E_TOPOLOGY: 'cluster',
      E2E_PORT: process.env.E2E_CLUSTER_PORT ?? '8941',
      PLAYWRIGHT_JSON_OUTPUT_NAME: clusterE2eReport,
    },
  });
}

let passed = 0;
let failed = 0;
for (const report of [vitestReport, clusterVitestReport]) {
  if (!existsSync(report)) continue;
  const v = JSON.parse(readFileSync(report, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
}
for (const report of [e2eReport, clusterE2eReport]) {
  if (!existsSync(report)) continue;
  const e = JSON.parse(readFileSync(report, 'utf8'));
  passed += e.stats.expected + e.stats.flaky;
  failed += e.stats.unexpected;
}
if (vitestStatus !== 0 || e2eStatus !== 0 || clusterStatus !== 0) failed = Math.max(failed, 1);
console.log(`\n全部测试用时 ${Math.round((Date.now() - started) / 1000)} 秒`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
