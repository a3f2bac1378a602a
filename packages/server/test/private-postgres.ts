import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary folder, a free port), so a test
 * may stop, kill and restart it. Never the shared cluster on 5432: others are using it.
 */
export interface PrivatePostgres {
  url: string;
  port: number;
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash. */
  stopImmediate(): Promise<void>;
  start(): Promise<void>;
  destroy(): void;
}

/** The newest installed server binaries (Debian: /usr/lib/postgresql/<version>/bin), or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')) && existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` account. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'appdesk-pg-'));
  const data = path.join(dir, 'data');
  const owner = runAs();
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) =>
    execFileSync(path.join(bin, tool), args, { stdio: 'pipe', cwd: dir, ...(owner ?? {}), timeout: 60_000 });
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  // Asynchronous: the server under test lives in this process and must keep running meanwhile.
  const runAsync = async (tool: string, args: string[]) => {
    await promisify(execFile)(path.join(bin, tool), args, { cwd: dir, ...(owner ?? {}), timeout: 60_000 });
  };
  const startArgs = ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start'];
  run('pg_ctl', startArgs);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stopImmediate: () => runAsync('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start: () => runAsync('pg_ctl', startArgs),
    destroy: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
