import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { type Nginx, S3_KEY, S3_SECRET, startNginx } from '../../../scripts/cluster';
import { type App, buildApp } from '../src/app';
import { type Config, loadConfig, type Quotas } from '../src/config';
import { enrolSuperAdmin } from '../src/core/operators';
import { hashPassword } from '../src/core/passwords';
import { type DatabaseHandle, openDatabase } from '../src/db/index';
import { freePort } from './free-port';
import { makeWav } from './media';
import { tinyApk } from './packages';
import { TEMPLATE_SCHEMA } from './template-setup';

export { makeApk, makeZip, tinyApk } from './packages';

/**
 * The vitest project sets TEST_DB: `sqlite`, `postgres`, or `cluster`: every test server is two
 * instances on one PostgreSQL schema with S3 storage (radosgw) behind a private nginx, and `url` is
 * nginx's (test/cluster-setup.ts starts radosgw once per run).
 */
export const topology: 'single' | 'cluster' = process.env.TEST_DB === 'cluster' ? 'cluster' : 'single';
/** Which database this run of the suite uses (the cluster's is PostgreSQL). */
export const testDb = process.env.TEST_DB === 'postgres' || topology === 'cluster' ? 'postgres' : 'sqlite';
/** Why a test that is inherently about one process skips in the cluster project (printed once per file). */
export const singleInstanceOnly = (reason: string): boolean => {
  if (topology === 'cluster') console.log(`skipped behind nginx (api-cluster): ${reason}`);
  return topology !== 'cluster';
};

/**
 * Behind nginx, a change made through one instance reaches the other's caches within a second
 * (cluster.test.ts measures it); a test that then reads through both waits that long. One instance: no wait.
 */
export async function crossInstanceSettled(): Promise<void> {
  if (topology === 'cluster') await new Promise((resolve) => setTimeout(resolve, 1_500));
}

/**
 * How long a test waits for another instance (or process) to see a change before calling it lost.
 * The product's figures (a notification in milliseconds, a 500 ms re-check; cluster.test.ts prints
 * them) are not asserted: two loaded cores shared with other runs stall a process for seconds. What
 * is asserted is the mechanism: without it a change is never seen, or a kept session lasts a minute.
 */
export const SEEN_WITHIN_MS = 8_000;

/** Milliseconds until `seen` holds, polled every `everyMs` for at most `withinMs`; Infinity if it never did. */
export async function msUntil(seen: () => Promise<boolean>, everyMs = 20, withinMs = 3000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < withinMs) {
    if (await seen()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return Number.POSITIVE_INFINITY;
}

export const digest = (password: string) =>
  // The client's sha256hex(password), computed the same way the browser does.
  import('node:crypto').then(({ createHash }) => createHash('sha256').update(password, 'utf8').digest('hex'));

export interface Answer {
  status: number;
  body: { code: number; message: string; data?: unknown; [key: string]: unknown };
  text: string;
  headers: Headers;
}

export interface TestServer {
  url: string;
  /** The (first) instance's app; behind nginx both instances share the database and the store. */
  app: App;
  /** Behind nginx (api-cluster): every instance's app, the first one being `app`. */
  apps: App[];
  config: Config;
  /** PostgreSQL: the schema the server's tables live in. */
  schema?: string;
  logs: string[];
  /** How many times each endpoint's handler has started (input that passed validation). */
  handlerRuns: Map<string, number>;
  call(path: string, body?: unknown, token?: string): Promise<Answer>;
  raw(path: string, init: RequestInit): Promise<Answer>;
  upload(path: string, field: string, bytes: Uint8Array, filename: string, token?: string): Promise<Answer>;
  /** Initialises the site and signs the first admin in. */
  initAdmin(): Promise<{ token: string; phone: string; password: string }>;
  /** Adds an account straight to the database (registration arrives with the users issue). */
  addUser(options?: { phone?: string; password?: string; isAdmin?: boolean; blocked?: boolean }): Promise<{
    id: number;
    phone: string;
    password: string;
  }>;
  login(phone: string, password: string): Promise<string>;
  /** A second server on the same database (another process, or this one restarted). */
  secondInstance(): Promise<TestServer>;
  close(): Promise<void>;
}

let phoneCounter = 0;
export function nextPhone(): string {
  phoneCounter += 1;
  return `139${String(process.pid % 10000).padStart(4, '0')}${String(phoneCounter).padStart(4, '0')}`;
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Another connection to the same database, as a second server process would have. */
  reopen(): DatabaseHandle;
  drop(): Promise<void>;
}

/**
 * A fresh database for a test server: with `fromTemplate`, a copy of the run's migrated template
 * (test/template-setup.ts) instead of an empty one, so the server's own migration finds nothing to do.
 */
export async function openTestDatabase(dataDir: string, { fromTemplate = false } = {}): Promise<TestDatabase> {
  const template = fromTemplate ? inject('databaseTemplate') : undefined;
  if (testDb === 'sqlite') {
    if (template?.sqlite) copyFileSync(template.sqlite, path.join(dataDir, 'appdesk.sqlite'));
    return { handle: openDatabase({ dataDir }), reopen: () => openDatabase({ dataDir }), drop: async () => {} };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  if (template?.postgresDump) {
    // The dump creates the schema with every table, index, trigger and the migrations' own rows.
    templateDump ??= readFileSync(template.postgresDump, 'utf8');
    await admin.query(templateDump.replaceAll(TEMPLATE_SCHEMA, schema));
  } else {
    await admin.query(`create schema ${schema}`);
  }
  await admin.end();
  return {
    handle: openDatabase({ databaseUrl: url, dataDir, schema }),
    reopen: () => openDatabase({ databaseUrl: url, dataDir, schema }),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}
let templateDump: string | undefined;

/**
 * Suites that are not about quotas register, mail and upload far more from one address than the
 * stated defaults allow; the quota tests pass their own (test/quotas.test.ts).
 */
export const unlimitedQuotas: Quotas = {
  registrationsPerAddressPerHour: 1_000_000,
  mailIntervalMs: 1,
  mailsPerAccountPerDay: 1_000_000,
  mailsPerAddressPerHour: 1_000_000,
  uploadsPerUserPerHour: 1_000_000,
  uploadBytesPerUserPerHour: 1024 ** 4,
  uploadBytesPerHour: 1024 ** 4,
  selfappReportsPerAddressPerMinute: 1_000_000,
  clientErrorsPerAddressPerMinute: 1_000_000,
  clientErrorsPerMinute: 1_000_000,
};

/** The run's S3 store (radosgw, started by test/cluster-setup.ts), once it has answered. */
let s3Ready: Promise<{ endpoint: string; bucket: string }> | undefined;
function s3Store(): Promise<{ endpoint: string; bucket: string }> {
  s3Ready ??= (async () => {
    const { dir, endpoint, bucket } = inject('clusterS3');
    const deadline = Date.now() + 180_000;
    // The setup writes `ready` once radosgw answers and the bucket exists, or `failed` with the reason.
    while (!existsSync(path.join(dir, 'ready'))) {
      if (existsSync(path.join(dir, 'failed'))) throw new Error(readFileSync(path.join(dir, 'failed'), 'utf8'));
      if (Date.now() > deadline) throw new Error('radosgw did not start within 180 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    process.env.AWS_ACCESS_KEY_ID = S3_KEY;
    process.env.AWS_SECRET_ACCESS_KEY = S3_SECRET;
    return { endpoint, bucket };
  })();
  return s3Ready;
}

/** Behind nginx one more proxy hop stands between the test and the server than the test states. */
function throughNginx(trust: Config['trustProxy']): Config['trustProxy'] {
  if (trust === false) return 1;
  if (typeof trust === 'number') return trust + 1;
  return [...trust, '127.0.0.1'];
}

/** Starts the real server on a fresh database and a random port (api-cluster: two, behind nginx). */
export async function startServer(overrides: Partial<Config> = {}, shared?: TestDatabase): Promise<TestServer> {
  const dataDir = shared ? (overrides.dataDir as string) : mkdtempSync(path.join(tmpdir(), 'appdesk-test-'));
  if (topology === 'cluster' && !overrides.storageUrl) {
    const { endpoint, bucket } = await s3Store();
    const prefix = `t${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    overrides = { ...overrides, storageUrl: `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}` };
  }
  const config = loadConfig({ dataDir, webDir: undefined, logLevel: 'info', quotas: unlimitedQuotas, ...overrides });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const database: TestDatabase = shared
    ? { ...shared, handle: shared.reopen(), drop: async () => {} }
    : await openTestDatabase(dataDir, { fromTemplate: true });
  const handlerRuns = new Map<string, number>();
  const onHandlerRun = (p: string) => handlerRuns.set(p, (handlerRuns.get(p) ?? 0) + 1);
  const apps: App[] = [];
  const extraDirs: string[] = [];
  let nginx: Nginx | undefined;
  let url: string;
  if (topology === 'cluster') {
    // Two instances on one schema and one store, each with its own data folder (its upload spool),
    // behind a private nginx as deploy/nginx renders it; nginx's address is the server's.
    const behind = { ...config, trustProxy: throughNginx(config.trustProxy) };
    const otherDir = mkdtempSync(path.join(tmpdir(), 'appdesk-test-b-'));
    extraDirs.push(otherDir);
    apps.push(await buildApp(behind, { database: database.handle, logger: { level: 'info', stream }, onHandlerRun }));
    apps.push(
      await buildApp(
        { ...behind, dataDir: otherDir },
        { database: database.reopen(), logger: { level: 'info', stream }, onHandlerRun },
      ),
    );
    const defaults = loadConfig();
    const upstreams: string[] = [];
    for (const one of apps) {
      await one.app.listen({ port: 0, host: '127.0.0.1' });
      upstreams.push(`127.0.0.1:${(one.app.server.address() as AddressInfo).port}`);
    }
    const nginxDir = mkdtempSync(path.join(tmpdir(), 'appdesk-test-nginx-'));
    extraDirs.push(nginxDir);
    for (let attempt = 1; ; attempt++) {
      try {
        nginx = await startNginx({
          prefix: nginxDir,
          port: await freePort(),
          upstreams,
          // nginx as deployed (the server's default limits plus framing), so a test that lowers a
          // limit still gets the server's own answer for a body just over it.
          limits: {
            image: Math.max(config.limits.image, defaults.limits.image),
            audio: Math.max(config.limits.audio, defaults.limits.audio),
            package: Math.max(config.limits.package, defaults.limits.package),
          },
          quiet: true,
        });
        break;
      } catch (error) {
        // Another process took the free port between the probe and nginx's bind: another port.
        if (attempt >= 3) throw error;
      }
    }
    url = nginx.url;
  } else {
    apps.push(await buildApp(config, { database: database.handle, logger: { level: 'info', stream }, onHandlerRun }));
    await apps[0].app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(apps[0].app.server.address() as AddressInfo).port}`;
  }
  const app = apps[0];

  // Every token the server handed out and every password digest a test sent: none may reach the log.
  const secrets = new Set<string>();
  const read = async (response: Response): Promise<Answer> => {
    const text = await response.text();
    let body: Answer['body'];
    try {
      body = JSON.parse(text);
    } catch {
      body = { code: -1, message: text };
    }
    const token = (body.data as { token?: unknown } | null | undefined)?.token;
    if (typeof token === 'string') secrets.add(token);
    return { status: response.status, body, text, headers: response.headers };
  };

  const server: TestServer = {
    url,
    app,
    apps,
    config,
    schema: database.handle.schema,
    logs,
    handlerRuns,
    raw: async (p, init) => read(await fetch(url + p, init)),
    call: async (p, body = {}, token = '') => {
      for (const digestSent of JSON.stringify(body).match(/\b[0-9a-f]{64}\b/g) ?? []) secrets.add(digestSent);
      // An operator's new password as typed (core/operator-password.ts) is a secret too.
      const plain = (body as { plainPassword?: unknown } | null)?.plainPassword;
      if (typeof plain === 'string') secrets.add(plain);
      return read(
        await fetch(url + p, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', token },
          body: JSON.stringify(body),
        }),
      );
    },
    upload: async (p, field, bytes, filename, token = '') => {
      const form = new FormData();
      form.append(field, new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
      return read(await fetch(url + p, { method: 'POST', headers: { token }, body: form }));
    },
    initAdmin: async () => {
      const phone = '13800000000';
      const password = 'Admin12345';
      const init = await server.call('/api/allocation/init', {
        phone,
        password: await digest(password),
        title: '测试站点',
        slogen: '让截图更简单',
      });
      if (init.body.code !== 200) throw new Error(`init failed: ${init.text}`);
      return { token: await server.login(phone, password), phone, password };
    },
    addUser: async (options = {}) => {
      const phone = options.phone ?? nextPhone();
      const password = options.password ?? 'User12345';
      const now = Date.now();
      const row = await app.services.db
        .insertInto('users')
        .values({
          phone,
          password_hash: await hashPassword(await digest(password)),
          nickname: '',
          is_admin: options.isAdmin ? 1 : 0,
          status: options.blocked ? 'blocked' : 'normal',
          coins: 0,
          email_verified: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // An administrator of the tests holds every permission, as first-run setup's does.
      if (options.isAdmin) await enrolSuperAdmin(app.services.db, row.id);
      return { id: row.id, phone, password };
    },
    login: async (phone, password) => {
      const answer = await server.call('/api/users/login', { phone, password: await digest(password) });
      const token = (answer.body.data as { token?: string } | undefined)?.token;
      if (!token) throw new Error(`login failed: ${answer.text}`);
      return token;
    },
    secondInstance: () => startServer({ ...overrides, dataDir }, database),
    close: async () => {
      await nginx?.stop();
      for (const one of apps) await one.close();
      assertLogsKeepSecrets(logs, secrets);
      await database.drop();
      for (const dir of extraDirs) rmSync(dir, { recursive: true, force: true });
      if (!shared) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * Every test server's log, whatever the test did: no token it handed out, no password digest it
 * was sent, and no whole mainland phone number (logs carry them masked, 138****0000).
 */
function assertLogsKeepSecrets(logs: string[], secrets: Set<string>): void {
  const text = logs.join('');
  const leaked = [...secrets].filter((secret) => text.includes(secret)).length;
  const phones = text.match(/(?<![\w.])1[3-9]\d{9}(?!\w)/g) ?? [];
  if (leaked > 0 || phones.length > 0) {
    throw new Error(
      `the server log holds ${leaked} token(s) or password digest(s) and ${phones.length} whole phone number(s), e.g. in ${text.split('\n').find((line) => phones[0] && line.includes(phones[0])) ?? ''}`.replace(
        /(1\d{2})\d{4}(\d{4})/g,
        '$1****$2',
      ),
    );
  }
}

/** The tables of the server's database, read from the database itself (so a feature's new table is covered). */
export async function tableNames(server: TestServer): Promise<string[]> {
  const db = server.app.services.db;
  const rows =
    server.app.services.dialect === 'sqlite'
      ? // Ordinary tables only: a full-text index's virtual and shadow tables mirror another table.
        await sql<{ name: string }>`select name from pragma_table_list where schema = 'main' and type = 'table'
          and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`.execute(
          db,
        );
  return rows.rows.map((r) => r.name).sort();
}

/** Every row of every table, to prove a rejected call changed nothing. */
export async function snapshotTables(server: TestServer, except: string[] = []): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const table of await tableNames(server)) {
    if (except.includes(table)) continue;
    // Every column in order makes the row order stable for tables with or without an id.
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      server.app.services.db,
    );
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return JSON.stringify(out);
}

/** A 1x1 PNG. */
export const tinyPng = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** A sample upload of each accepted kind, for the generated tests. */
export const sampleUpload = (kind: string): Uint8Array =>
  kind === 'package' ? tinyApk : kind === 'audio' ? makeWav(0.1) : tinyPng;
