import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type Dialect as KyselyDialect,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { registerSearchFunctions } from './grams.mjs';

interface Reply {
  id: number;
  rows: unknown[];
  changes?: number;
  lastInsertRowid?: number;
  error?: { message: string; code?: string };
}

/**
 * The one writer at a time, decided in this process. Two connections writing at once would meet
 * at SQLite's lock, and the loser sleeps in SQLite's busy handler (1, 2, 5, 10 … ms) although a
 * write here takes tens of microseconds: under concurrent writes that sleeping, not the writing,
 * set the rate and the p99. Here writers queue in order and the next starts as soon as the last
 * ends; one waiting longer than busy_timeout fails as SQLite's lock would (SQLITE_BUSY, a 503).
 */
export class WriterTurn {
  private held = false;
  private readonly queue: { grant(): void; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly timeoutMs: number) {}

  /** Takes the turn now if nobody holds it (true), without waiting. */
  tryAcquire(): boolean {
    if (this.held) return false;
    this.held = true;
    return true;
  }

  acquire(): Promise<void> | undefined {
    if (!this.held) {
      this.held = true;
      return undefined;
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(entry), 1);
          reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
        }, this.timeoutMs),
      };
      this.queue.push(entry);
    });
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next.grant();
    else this.held = false;
  }
}

/**
 * Statements that need not wait for the writer's turn: reads, and a passive checkpoint (it copies
 * the WAL into the database file without SQLite's write lock, so writers go on meanwhile; in the
 * turn, it held every write for tens of milliseconds). Everything else takes the turn, an unsure
 * raw statement included.
 */
function outsideTheTurn(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  if (kind === 'SelectQueryNode') return true;
  if (kind === 'RawNode') {
    return (
      /^\s*(select|pragma\s+\w+\s*$|explain)\b/i.test(query.sql) ||
      /^\s*pragma\s+wal_checkpoint\s*\(\s*passive\s*\)\s*$/i.test(query.sql)
    );
  }
  return false;
}

/** A connection living in its own worker thread: a slow query there never blocks HTTP. */
class WorkerConnection implements DatabaseConnection {
  private readonly pending = new Map<number, { resolve(reply: Reply): void; reject(error: Error): void }>();
  private nextId = 0;
  private failure: Error | undefined;
  /** Inside a transaction this connection holds the writer's turn already (begin immediate). */
  inTransaction = false;

  constructor(
    private readonly worker: Worker,
    private readonly turn: WriterTurn,
  ) {
    worker.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiter?.resolve(reply);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`SQLite worker exited with code ${code}`)));
  }

  private fail(error: Error) {
    this.failure = error;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction || outsideTheTurn(query)) return this.send(query);
    const waiting = this.turn.acquire();
    if (waiting) await waiting;
    try {
      return await this.send<R>(query);
    } finally {
      this.turn.release();
    }
  }

  /** Runs a statement on the worker without asking for the writer's turn. */
  async send<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
    if (reply.error) {
      throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
    }
    if (reply.changes === undefined) return { rows: reply.rows as R[] };
    return {
      rows: reply.rows as R[],
      numAffectedRows: BigInt(reply.changes),
      insertId: reply.lastInsertRowid === undefined ? undefined : BigInt(reply.lastInsertRowid),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered; exports page by id instead
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the SQLite worker pool');
  }

  terminate() {
    return this.worker.terminate();
  }
}

/** Room for a few pages of rows in flight per worker; V8's default grows to 48 MiB per thread under load. */
const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * SQLite as PocketBase runs it: several connections to one WAL file, each in a worker thread,
 * so reads run in parallel on every core while writers take turns (busy_timeout). Transactions
 * begin IMMEDIATE: they take the write lock up front instead of failing when a read turns into
 * a write.
 */
class SqlitePoolDriver implements Driver {
  private readonly idle: WorkerConnection[] = [];
  private readonly all: WorkerConnection[] = [];
  private readonly waiting: ((connection: WorkerConnection) => void)[] = [];
  private readonly turn: WriterTurn;

  constructor(
    private readonly file: string,
    private readonly size: number,
    private readonly settings: SqliteSettings,
    turn?: WriterTurn,
  ) {
    this.turn = turn ?? new WriterTurn(settings.busyTimeoutMs);
  }

  async init(): Promise<void> {
    const workerUrl = new URL('./sqlite-worker.mjs', import.meta.url);
    for (let i = 0; i < this.size; i++) {
      const connection = new WorkerConnection(
        new Worker(workerUrl, {
          workerData: { file: this.file, ...this.settings },
          // A worker's young generation stays small: it only carries rows from SQLite to the main thread.
          resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
        }),
        this.turn,
      );
      this.all.push(connection);
      this.idle.push(connection);
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = this.idle.pop();
    if (connection) return connection;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const next = this.waiting.shift();
    if (next) next(connection as WorkerConnection);
    else this.idle.push(connection as WorkerConnection);
  }

  // A transaction holds the writer's turn from its begin to its commit or rollback.
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const worker = connection as WorkerConnection;
    const waiting = this.turn.acquire();
    if (waiting) await waiting;
    try {
      await worker.send(CompiledQuery.raw('begin immediate'));
    } catch (error) {
      this.turn.release();
      throw error;
    }
    worker.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const worker = connection as WorkerConnection;
    // A commit that fails leaves the transaction open: Kysely rolls it back next, and that ends the turn.
    await worker.send(CompiledQuery.raw('commit'));
    this.endTransaction(worker);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const worker = connection as WorkerConnection;
    try {
      await worker.send(CompiledQuery.raw('rollback'));
    } catch (error) {
      // SQLite has already rolled back by itself after some failures (a full disk, an I/O error):
      // the original error is the one to report, not this one.
      if (!/no transaction is active/.test((error as Error).message)) throw error;
    } finally {
      this.endTransaction(worker);
    }
  }

  private endTransaction(worker: WorkerConnection) {
    if (!worker.inTransaction) return;
    worker.inTransaction = false;
    this.turn.release();
  }

  async destroy(): Promise<void> {
    await Promise.all(this.all.map((connection) => connection.terminate()));
  }
}

/** Per-connection settings (sqlite-worker.mjs applies them as pragmas). */
export interface SqliteSettings {
  busyTimeoutMs: number;
  synchronous: 'normal' | 'full';
}

/**
 * SQLite rolls DDL back with the rest of a transaction, but Kysely's adapter says it does not, so
 * its migrator ran SQLite's migrations one statement at a time: a server stopped in the middle of
 * a long migration (a counter filled from a million rows) left a table made but the migration
 * unrecorded, and would not start again ("table already exists"). Saying so makes every pending
 * migration one transaction, all or nothing, as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely dialect over the worker pool; `size` defaults to one connection per core (at least 2). */
export function sqlitePoolDialect(
  file: string,
  size = Math.max(2, availableParallelism()),
  settings: SqliteSettings = { busyTimeoutMs: 5000, synchronous: 'normal' },
  turn?: WriterTurn,
): KyselyDialect {
  return {
    createAdapter: () => new TransactionalDdlSqliteAdapter(),
    createDriver: () => new SqlitePoolDriver(file, size, settings, turn),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/**
 * One read-only connection on the main thread for point reads: a row found by a unique key (the
 * session of a token, a kept count), which SQLite answers in microseconds. Handing such a read to
 * a worker costs more than the read itself (two thread wake-ups, tens of microseconds here); a
 * read that could take long never comes here (db/compiled.ts decides, per query).
 *
 * And one writable connection on the main thread for point writes: a one-row insert on the hot
 * path of app traffic (a promotion `show`), run when the writer's turn is free at that moment
 * (else the caller goes through the pool and waits its turn there). It never waits for SQLite's
 * lock (busy timeout 0: a lock held by another process sends the write to the pool) and never
 * checkpoints (the event loop would wait for the disk): after every CHECKPOINT_EVERY writes a
 * worker is asked to checkpoint, as the workers' own commits do.
 */
const CHECKPOINT_EVERY = 500;

export class SqlitePointReader {
  private connection: SQLite.Database | undefined;
  private readonly statements = new Map<string, SQLite.Statement>();
  private writer: SQLite.Database | undefined;
  private readonly writes = new Map<string, SQLite.Statement>();
  private written = 0;
  /** Asks a pooled connection to checkpoint the WAL (set by openDatabase). */
  checkpoint: () => void = () => {};

  constructor(
    private readonly file: string,
    private readonly options?: { turn: WriterTurn; synchronous: 'normal' | 'full' },
  ) {}

  all(sql: string, parameters: readonly unknown[]): unknown[] {
    // Readers never wait in WAL mode but while the log is recovered; the event loop waits at most a second.
    this.connection ??= new SQLite(this.file, { readonly: true, timeout: 1000 });
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement.all(...parameters);
  }

  /** Runs a one-row write now and answers its RETURNING rows, or undefined when it must go through the pool. */
  write(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    const turn = this.options?.turn;
    if (!turn?.tryAcquire()) return undefined;
    try {
      const { rows } = this.run(sql, parameters);
      this.noteWrite();
      return rows;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return undefined;
      throw error;
    } finally {
      turn.release();
    }
  }

  /**
   * Runs one statement on the main thread's writer connection for a transaction that holds the
   * writer's turn (sqlite-inline.ts), answered as a pooled connection would answer it.
   */
  run(sql: string, parameters: readonly unknown[]): QueryResult<unknown> {
    const statement = this.writeStatement(sql);
    if (statement.reader) return { rows: statement.all(...parameters) };
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  /** Whether the writer connection is inside a transaction (SQLite may have ended one by itself). */
  get writerInTransaction(): boolean {
    return this.writer?.inTransaction ?? false;
  }

  /** Counts a committed write; every CHECKPOINT_EVERY of them a worker checkpoints the WAL. */
  noteWrite(): void {
    this.written += 1;
    if (this.written % CHECKPOINT_EVERY === 0) this.checkpoint();
  }

  private writeStatement(sql: string): SQLite.Statement {
    if (!this.writer) {
      const writer = new SQLite(this.file, { timeout: 0 });
      writer.pragma('foreign_keys = ON');
      writer.pragma(`synchronous = ${this.options?.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      writer.pragma('wal_autocheckpoint = 0');
      registerSearchFunctions(writer);
      this.writer = writer;
    }
    let statement = this.writes.get(sql);
    if (!statement) {
      statement = this.writer.prepare(sql);
      this.writes.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.connection?.close();
    this.connection = undefined;
    this.statements.clear();
    this.writer?.close();
    this.writer = undefined;
    this.writes.clear();
  }
}
