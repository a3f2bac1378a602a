// Shared by start.mjs and test.mjs: only Node built-ins, because these run before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function mustRun(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} exited with ${status}`);
    process.exit(status);
  }
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Runs `npm ci` when node_modules is missing or older than the lock file. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('▸ 安装依赖（npm ci；首次约 3 分钟，better-sqlite3 需要编译）');
  mustRun('npm', ['ci', '--no-audit', '--no-fund'], {
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
}

/** Builds web and server when their output is missing or older than any source. */
export function ensureBuilt({ force = false } = {}) {
  const sources = Math.max(
    newestMtime(path.join(root, 'packages', 'contract', 'src')),
    newestMtime(path.join(root, 'packages', 'server', 'src')),
    newestMtime(path.join(root, 'packages', 'web')),
  );
  const built = Math.min(
    newestMtime(path.join(root, 'packages', 'web', 'dist', 'index.html')),
    newestMtime(path.join(root, 'packages', 'server', 'dist', 'main.js')),
  );
  if (!force && built > sources) return;
  console.log('▸ 构建前端与服务端');
  mustRun('npm', ['run', 'build']);
}

/**
 * The end-to-end run's browser: Debian's Chromium, and a Chinese font for the screenshots people read.
 * As root with apt-get it installs them; otherwise it says in one line how, and stops.
 */
export function ensureBrowser() {
  if (existsSync('/usr/bin/chromium') && existsSync('/usr/share/fonts/truetype/wqy')) return;
  const packages = ['chromium', 'fonts-wqy-microhei'];
  if (process.getuid?.() === 0 && run('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }) === 0) {
    console.log(`▸ 安装端到端测试所需的 ${packages.join('、')}（apt-get）`);
    const apt = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
    mustRun('apt-get', ['update', '-qq'], apt);
    mustRun('apt-get', ['install', '-y', '-qq', ...packages], apt);
    return;
  }
  console.error(`缺少端到端测试用的浏览器：请运行 sudo apt-get install -y ${packages.join(' ')}，然后再运行 npm test`);
  process.exit(1);
}
