// `npm test`: lint, type-check, unit + API tests (SQLite, and PostgreSQL when TEST_DATABASE_URL
// is set), then the end-to-end suite in Chromium against the built product.
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

let passed = 0;
let failed = 0;
if (existsSync(vitestReport)) {
  const v = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
}
if (existsSync(e2eReport)) {
  const e = JSON.parse(readFileSync(e2eReport, 'utf8'));
  passed += e.stats.expected + e.stats.flaky;
  failed += e.stats.unexpected;
}
if (vitestStatus !== 0 || e2eStatus !== 0) failed = Math.max(failed, 1);
console.log(`\n全部测试用时 ${Math.round((Date.now() - started) / 1000)} 秒`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
