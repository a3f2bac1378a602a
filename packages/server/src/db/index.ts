import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type DatabaseIntrospector,
  Kysely,
  type Migration as KyselyMigration,
  type Logger,
  Migrator,
  PostgresDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import { registerSessionCache, SESSION_CHANGES, SessionCache } from '../core/session-cache';
import { registerPointReader } from './compiled';
import type { Dialect } from './migrations/helpers';
import { type Migration, migrations } from './migrations/index';
import { listenTo } from './pg-listen';
import { PreparedStatementsClient, type PreparedStatementsConfig } from './pg-prepared';
import type { CoreDatabase, Database } from './schema';
import { inlineTransactions, registerShortTransactions } from './sqlite-inline';
import { SqlitePointReader, sqlitePoolDialect, WriterTurn } from './sqlite-pool';

export type Db = Kysely<Database>;

/**
 * A feature's view of the database: the core tables and the feature's own (`<F>Tables` in its tables.ts),
 * for its internal queries. A feature's public.ts takes `Db`, the handle every caller holds: one feature's
 * view does not convert to another's.
 */
export type FeatureDb<Own> = Kysely<CoreDatabase & Own>;
export type { Dialect } from './migrations/helpers';
export type { CoreDatabase, Database } from './schema';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL schema the tables live in, when not the default. */
  schema?: string;
  close(): Promise<void>;
  /** Hears a PostgreSQL connection dying (restart, network); the pool replaces it by itself. */
  onConnectionError(listener: (error: Error) => void): void;
  /** Hears every query's duration in ms and kind (the metrics); point reads (db/compiled.ts) are not heard. */
  onQuery(listener: QueryListener): void;
  /** The connection pool's state now (PostgreSQL's pool; SQLite's workers are all busy or not, so only its size). */
  poolStats(): { total: number; idle: number; waiting: number };
}

export type QueryListener = (ms: number, kind: string, failed: boolean) => void;

/** Kysely's query log, handed to whoever listens (nobody until the metrics do). */
function queryLog(): { log: Logger; listen(listener: QueryListener): void } {
  let listener: QueryListener | undefined;
  return {
    log: (event) => listener?.(event.queryDurationMillis, event.query.query.kind, event.level === 'error'),
    listen: (fn) => {
      listener = fn;
    },
  };
}

// PostgreSQL returns int8 (bigint, our epoch-ms columns) and COUNT(*) as strings; every
// value we store fits in a double, so read them as numbers.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/**
 * Connections per process on PostgreSQL: twice the cores, at least 4. On the 2-core bench machine
 * ten connections (the old default) ran ten backends against two cores beside Node, and the lists'
 * p95 at concurrency 10 was 25–35 % worse than with four (bench/results/latest.md, issue 14); a
 * query waiting for a connection in Node costs less than one waiting for a core in the database.
 */
const defaultPostgresPool = () => Math.max(4, 2 * availableParallelism());
export const DEFAULT_POOL_WAIT_MS = 10_000;

/** Opens SQLite under dataDir (default) or PostgreSQL when databaseUrl is a postgres:// URL. */
export function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL: how long a query may wait for a pooled connection (or a new one) before it answers 503. */
  poolWaitMs?: number;
  /** PostgreSQL schema to work in (tests give each server its own). */
  schema?: string;
  /** SQLite: how long a writer waits for the lock before the call answers 503 (default 5000 ms). */
  busyTimeoutMs?: number;
  /** SQLite `synchronous`: NORMAL (default; WAL stays consistent, the last commits may be lost on power loss) or FULL. */
  synchronous?: 'normal' | 'full';
}): DatabaseHandle {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    let listener: ((error: Error) => void) | undefined;
    const onError = (error: Error) => listener?.(error);
    const listenerName = `appdesk sessions ${options.schema ?? ''}`.trim();
    const sessionCache = new SessionCache((events) => listenTo(url, SESSION_CHANGES, events, onError, listenerName));
    const poolConfig: pg.PoolConfig & PreparedStatementsConfig = {
      connectionString: url,
      afterSessionWrite: () => sessionCache.forget(),
      max: options.poolSize ?? defaultPostgresPool(),
      Client: PreparedStatementsClient,
      // A database that does not answer is an outage (503), not a request that hangs. The wait also
      // covers the queue for a pooled connection, which must outlast a burst: while a peer restarts
      // this instance takes its share of the load too (bench/results/rolling-restart.md).
      connectionTimeoutMillis: options.poolWaitMs ?? DEFAULT_POOL_WAIT_MS,
      // Named statements may keep a generic plan; value-sensitive ones run unnamed (pg-prepared.ts).
      ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
    };
    const pool = new pg.Pool(poolConfig);
    // A connection that dies (the database restarts, the network drops) emits 'error' on the pool
    // when idle and on the client when checked out; unheard, either would end the process. The
    // pool drops a dead connection and opens a new one for the next query.
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
    const queries = queryLog();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: queries.log });
    registerSessionCache(db, sessionCache);
    return {
      db,
      dialect: 'postgres',
      schema: options.schema,
      close: () => {
        sessionCache.close();
        return db.destroy();
      },
      onConnectionError: (fn) => {
        listener = fn;
      },
      onQuery: queries.listen,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  if (url) throw new Error('DATABASE_URL must start with postgres:// (leave it unset for SQLite)');
  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'appdesk.sqlite');
  // WAL is a property of the file: set it once, before the pool's connections open it.
  const setup = new SQLite(file);
  setup.pragma('journal_mode = WAL');
  setup.close();
  const queries = queryLog();
  const poolSize = options.poolSize ?? Math.max(2, availableParallelism());
  const settings = { busyTimeoutMs: options.busyTimeoutMs ?? 5000, synchronous: options.synchronous ?? 'normal' };
  // One writer at a time across the pool and the main thread's point writes.
  const turn = new WriterTurn(settings.busyTimeoutMs);
  const db = new Kysely<Database>({ dialect: sqlitePoolDialect(file, poolSize, settings, turn), log: queries.log });
  const pointReader = new SqlitePointReader(file, { turn, synchronous: settings.synchronous });
  pointReader.checkpoint = () => {
    sql`pragma wal_checkpoint(passive)`.execute(db).catch(() => {});
  };
  registerPointReader(db, pointReader);
  registerShortTransactions(db, inlineTransactions(pointReader, turn, settings.busyTimeoutMs, queries.log));
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      pointReader.close();
      await db.destroy();
    },
    onConnectionError: () => {},
    onQuery: queries.listen,
    poolStats: () => ({ total: poolSize, idle: 0, waiting: 0 }),
  };
}

/**
 * Kysely's migrator asks whether its tables exist through an introspection of every schema in the
 * database, which calls pg_get_serial_sequence on each table: a schema dropped meanwhile (another
 * server's or test's) fails that with "schema does not exist". Ours only ever needs its own schema.
 */
function withSchemaScopedIntrospection(db: Db): Db {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace`.execute(db);
      return rows;
    },
    getTables: async () => {
      const { rows } = await sql<{ name: string; schema: string }>`
        select c.relname as name, n.nspname as schema from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')`.execute(db);
      return rows.map((row) => ({ ...row, isView: false, columns: [] }));
    },
    getMetadata: async () => ({ tables: [] }),
  };
  // Methods are bound to the real instance: Kysely keeps its state in private fields.
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Applies every pending migration; throws if one fails (the server must not start half-migrated). */
export async function migrateToLatest(handle: DatabaseHandle, featureMigrations: Migration[] = []): Promise<void> {
  const provided: Record<string, KyselyMigration> = {};
  for (const m of [...migrations, ...featureMigrations]) {
    if (m.name in provided) throw new Error(`Two migrations are named ${m.name}`);
    provided[m.name] = { up: (db) => m.up(db, handle.dialect) };
  }
  const migrator = new Migrator({
    db: handle.dialect === 'postgres' ? withSchemaScopedIntrospection(handle.db) : handle.db,
    // Kysely looks for its own tables across every schema: name ours, so another schema's
    // (another server's, on a shared database) is never taken for this one's.
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
    provider: { getMigrations: async () => provided },
    // Features are written side by side; each one's migrations only touch its own tables.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败：${failed?.migrationName ?? ''}`, { cause: error });
  }
}
