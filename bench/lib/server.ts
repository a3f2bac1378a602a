import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { serverEnv, serverNodeArgsFor } from '../../packages/server/runtime.mjs';
import { callOk } from './api';
import { type Child, freePort, start, waitUntil } from './processes';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The built server (packages/server/dist) on a seeded data folder, or on `databaseUrl`, with the
 * production flags of runtime.mjs for that database; cwd is the data folder, so a developer's .env
 * (say, a PostgreSQL URL) is not picked up. The first start migrates every feature over the seeded rows,
 * which takes a while at a million users: it is allowed five minutes.
 */
export async function startSeededServer(
  dataDir: string,
  options: {
    databaseUrl?: string;
    log?: (line: string) => void;
    env?: Record<string, string>;
    /** The checkout whose built server runs (default this one): an A/B of two builds on one harness. */
    serverRoot?: string;
  } = {},
): Promise<{ child: Child; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = start(
    options.databaseUrl ? 'server-pg' : 'server',
    process.execPath,
    [...serverNodeArgsFor(options.databaseUrl), path.join(options.serverRoot ?? root, 'packages/server/dist/main.js')],
    {
      cwd: dataDir,
      env: {
        ...serverEnv,
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
        ...options.env,
      },
    },
  );
  const began = performance.now();
  await waitUntil(
    child,
    async () => {
      await callOk(base, '/api/allocation/fetch');
      return true;
    },
    300_000,
  );
  options.log?.(`  server up (migrated) in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return { child, base };
}
