// Several AppDesk instances behind nginx on one PostgreSQL database and one S3 store (radosgw), all on
// loopback: what the end-to-end run through nginx (E2E_TOPOLOGY=cluster), the cross-instance test, the
// kill -9 test and bench/rolling.ts start. As a command:
//   node --import tsx scripts/cluster.ts [--port 8946] [--instances 2]   (Ctrl-C stops everything)
// Needs the built server (npm run build), Debian's nginx and radosgw (.ci/run installs both), and
// PostgreSQL at TEST_DATABASE_URL / DATABASE_URL (a fresh database is created and dropped at the end).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serverEnv, serverNodeArgsFor } from '../packages/server/runtime.mjs';

const root = path.resolve(import.meta.dirname, '..');
const s3Script = path.join(root, 'scripts/s3-test-server.sh');
const modules = '/usr/lib/nginx/modules';
export const S3_KEY = 'appdesk-test-key';
export const S3_SECRET = 'appdesk-test-secret-0123456789';
const MiB = 1024 * 1024;

/** Upload limits as the server reads them (packages/server/src/config.ts), for nginx's body limits. */
function limit(name: string, fallback: number): number {
  const value = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Renders deploy/nginx/appdesk.conf for these instances (brotli lines dropped when the module is missing). */
export function renderNginxSite(options: {
  listen: string;
  upstreams: string[];
  webDir: string;
  /** The server's upload limits in bytes (default: as the server reads them from the environment). */
  limits?: { image: number; audio: number; package: number };
}): string {
  const body = (bytes: number) => `${Math.ceil(bytes / MiB) + 1}m`;
  const values: Record<string, string> = {
    LISTEN: options.listen,
    UPSTREAM_SERVERS: options.upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n'),
    WEB_DIR: options.webDir,
    IMAGE_BODY_MAX: body(options.limits?.image ?? limit('UPLOAD_IMAGE_MAX_BYTES', 10 * MiB)),
    AUDIO_BODY_MAX: body(options.limits?.audio ?? limit('UPLOAD_AUDIO_MAX_BYTES', 50 * MiB)),
    PACKAGE_BODY_MAX: body(options.limits?.package ?? limit('UPLOAD_PACKAGE_MAX_BYTES', 2048 * MiB)),
  };
  const brotli = existsSync(path.join(modules, 'ngx_http_brotli_filter_module.so'));
  return readFileSync(path.join(root, 'deploy/nginx/appdesk.conf'), 'utf8')
    .split('\n')
    .filter((line) => brotli || !/^\s*brotli/.test(line))
    .join('\n')
    .replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`appdesk.conf: no value for {{${name}}}`);
      return values[name];
    });
}

export interface Instance {
  port: number;
  dataDir: string;
  process: ChildProcess | undefined;
  /** Starts (again) and waits until /readyz answers 200. */
  start(): Promise<void>;
  /** Sends SIGTERM (or another signal) and waits for the exit; answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Cluster {
  /** nginx's address, e.g. http://127.0.0.1:8946 */
  url: string;
  instances: Instance[];
  /** The fresh database every instance uses. */
  databaseUrl: string;
  storageUrl: string;
  /** The environment an instance runs with (for the command-line tools against the same data). */
  env: Record<string, string>;
  /**
   * Takes an instance out of nginx's upstream (`down`) or puts it back, by rewriting the site and
   * reloading nginx (SIGHUP: new workers take new requests, the old ones finish theirs).
   */
  setDown(index: number, down: boolean): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** nginx listens here; instances on port+1…, radosgw on the next, its monitor on port+10000 and +10001. */
  port: number;
  instances?: number;
  /** PostgreSQL server to create the database on (its database part is replaced). */
  databaseUrl?: string;
  /** More environment for every instance (payment keys, LOG_LEVEL, …). */
  env?: Record<string, string | undefined>;
  /** Where instances and nginx write their output (default: inherit). */
  quiet?: boolean;
}

async function waitFor(what: string, ok: () => Promise<boolean>, ms: number, failed?: () => string | undefined) {
  const deadline = Date.now() + ms;
  for (;;) {
    const problem = failed?.();
    if (problem) throw new Error(`${what}: ${problem}`);
    if (await ok().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const answers = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200;

/** Starts radosgw, a fresh database, the instances (one after the other: the first migrates) and nginx. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.instances ?? 2;
  const base = options.port;
  const work = mkdtempSync(path.join(tmpdir(), 'appdesk-cluster-'));
  chmodSync(work, 0o755);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(work, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error('cluster stop:', (error as Error).message);
      }
    }
  };
  try {
    // One S3 store.
    const s3Dir = path.join(work, 's3');
    const s3Port = base + count + 1;
    execFileSync(s3Script, ['start', s3Dir, String(s3Port)], {
      env: { ...process.env, S3_TEST_MON_PORT: String(base + 10000), S3_TEST_MON2_PORT: String(base + 10001) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    cleanups.push(() => {
      execFileSync(s3Script, ['stop', s3Dir], { stdio: 'ignore' });
    });
    const storageUrl = `s3://appdesk-${randomBytes(4).toString('hex')}/files?endpoint=${encodeURIComponent(`http://127.0.0.1:${s3Port}`)}`;

    // One database.
    const server = new URL(
      options.databaseUrl ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    );
    const name = `appdesk_cluster_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: server.toString() });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    });
    const database = new URL(server);
    database.pathname = `/${name}`;
    const databaseUrl = database.toString();

    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...serverEnv,
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      STORAGE_URL: storageUrl,
      AWS_ACCESS_KEY_ID: S3_KEY,
      AWS_SECRET_ACCESS_KEY: S3_SECRET,
      TRUST_PROXY: '1',
      // A stopping instance answers 503 for a second before closing its listener; nginx passes those on.
      SHUTDOWN_REFUSE_MS: '1000',
      PUBLIC_URL: `http://127.0.0.1:${base}`,
      LOG_LEVEL: 'warn',
    };
    for (const [key, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }

    const instances: Instance[] = [];
    for (let i = 0; i < count; i++) {
      const port = base + 1 + i;
      const dataDir = path.join(work, `instance-${i + 1}`);
      mkdirSync(dataDir);
      let exited: string | undefined;
      const instance: Instance = {
        port,
        dataDir,
        process: undefined,
        async start() {
          exited = undefined;
          const child = spawn(
            process.execPath,
            [...serverNodeArgsFor(env.DATABASE_URL), path.join(root, 'packages/server/dist/main.js')],
            {
              cwd: root,
              env: { ...env, PORT: String(port), DATA_DIR: dataDir },
              stdio: ['ignore', options.quiet ? 'ignore' : 'inherit', options.quiet ? 'ignore' : 'inherit'],
            },
          );
          instance.process = child;
          child.once('exit', (code, signal) => {
            exited = `exited with ${code ?? signal}`;
          });
          await waitFor(
            `instance on ${port}`,
            () => answers(`http://127.0.0.1:${port}/readyz`),
            60_000,
            () => exited,
          );
        },
        async stop(signal = 'SIGTERM') {
          const child = instance.process;
          if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
          const done = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
          child.kill(signal);
          return done;
        },
      };
      await instance.start();
      cleanups.push(async () => {
        await instance.stop('SIGTERM');
      });
      instances.push(instance);
    }

    // nginx in front, in the foreground with its own prefix folder.
    const nginx = await startNginx({
      prefix: path.join(work, 'nginx'),
      port: base,
      upstreams: instances.map((i) => `127.0.0.1:${i.port}`),
    });
    cleanups.push(nginx.stop);
    const url = nginx.url;
    const setDown = nginx.setDown;
    return { url, instances, databaseUrl, storageUrl, env, stop, setDown };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface Nginx {
  url: string;
  /** Takes an upstream out (`down`) or puts it back: rewrites the site and reloads nginx (SIGHUP). */
  setDown(index: number, down: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** Private nginx processes still running: killed when this process exits without stopping them. */
const liveNginx = new Set<ChildProcess>();
let exitHookSet = false;

/**
 * A private nginx (deploy/nginx/nginx.conf + appdesk.conf) in the foreground, everything under
 * `prefix` (made here), listening on 127.0.0.1:port in front of `upstreams` (host:port each).
 */
export async function startNginx(options: {
  prefix: string;
  port: number;
  upstreams: string[];
  webDir?: string;
  limits?: { image: number; audio: number; package: number };
  /** Where nginx's error output goes (default: inherit). */
  quiet?: boolean;
}): Promise<Nginx> {
  const { prefix } = options;
  mkdirSync(prefix, { recursive: true });
  chmodSync(prefix, 0o755);
  const downs = new Set<number>();
  const writeSite = () =>
    writeFileSync(
      path.join(prefix, 'appdesk.conf'),
      renderNginxSite({
        listen: `127.0.0.1:${options.port}`,
        upstreams: options.upstreams.map((u, n) => `${u}${downs.has(n) ? ' down' : ''}`),
        webDir: options.webDir ?? path.join(root, 'packages/web/dist'),
        limits: options.limits,
      }),
    );
  writeSite();
  const load = ['ngx_http_brotli_filter_module.so', 'ngx_http_brotli_static_module.so']
    .filter((m) => existsSync(path.join(modules, m)))
    .map((m) => `load_module ${path.join(modules, m)};`);
  const mainConf = readFileSync(path.join(root, 'deploy/nginx/nginx.conf'), 'utf8')
    .replace('{{LOAD_MODULES}}', load.join('\n'))
    // Workers of a root master run as nobody (they read the build folder and the prefix's temp folders).
    .replace('{{USER}}', process.getuid?.() === 0 ? 'user nobody nogroup;' : '')
    .replace('{{ACCESS_LOG}}', process.env.CLUSTER_ACCESS_LOG ? `${prefix}/access.log` : 'off')
    .replaceAll('{{PREFIX}}', prefix);
  writeFileSync(path.join(prefix, 'nginx.conf'), mainConf);
  const nginx = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'inherit', options.quiet ? 'pipe' : 'inherit'],
  });
  liveNginx.add(nginx);
  if (!exitHookSet) {
    exitHookSet = true;
    process.once('exit', () => {
      for (const child of liveNginx) child.kill('SIGTERM');
    });
  }
  let errors = '';
  nginx.stderr?.on('data', (chunk) => {
    errors = (errors + String(chunk)).slice(-2000);
  });
  let nginxExit: string | undefined;
  nginx.once('exit', (code, signal) => {
    liveNginx.delete(nginx);
    nginxExit = `nginx exited with ${code ?? signal} ${errors}`;
  });
  nginx.once('error', (error) => {
    nginxExit = `nginx did not start: ${error.message}`;
  });
  const stop = async () => {
    if (nginx.exitCode !== null || nginx.signalCode !== null || nginxExit) return;
    const done = new Promise((resolve) => nginx.once('exit', resolve));
    nginx.kill('SIGQUIT');
    await done;
  };
  const url = `http://127.0.0.1:${options.port}`;
  try {
    // nginx answers its own 404 for /metrics once it listens (no instance needed).
    await waitFor(
      'nginx',
      async () => (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(2000) })).status === 404,
      15_000,
      () => nginxExit,
    );
  } catch (error) {
    nginx.kill('SIGTERM');
    throw error;
  }
  const setDown = async (index: number, down: boolean) => {
    if (down) downs.add(index);
    else downs.delete(index);
    writeSite();
    nginx.kill('SIGHUP');
    // The new workers are up within milliseconds; give the old ones a moment to hand over.
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  return { url, setDown, stop };
}

/** The command: starts a cluster and keeps it until Ctrl-C. */
async function main() {
  const arg = (name: string, fallback: number) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const cluster = await startCluster({ port: arg('--port', 8946), instances: arg('--instances', 2) });
  console.log(`▸ AppDesk behind nginx: ${cluster.url} (instances ${cluster.instances.map((i) => i.port).join(', ')})`);
  console.log(`  DATABASE_URL=${cluster.databaseUrl}`);
  console.log(`  STORAGE_URL=${cluster.storageUrl}`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      cluster.stop().then(() => process.exit(0));
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
