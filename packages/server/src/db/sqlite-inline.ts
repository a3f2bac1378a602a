import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type Dialect as KyselyDialect,
  type LogConfig,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type TransactionBuilder,
} from 'kysely';
import type { Database } from './schema';
import type { SqlitePointReader, WriterTurn } from './sqlite-pool';

/**
 * Short transactions on the main thread (SQLite only). A transaction holds the writer's turn from
 * its begin to its commit, so every other write waits for it; on the worker pool each of its
 * statements is a hand-over to a worker thread and back (about 0.2 ms), and an app's redemption
 * of a dozen statements held the turn for 2.5-3 ms: the shop sold about 330 a second, whatever
 * the cores. Run on the main thread's writer connection, the same statements take microseconds
 * each. Only for transactions made of point reads and writes by key (a route's
 * `transaction: 'short'`): the event loop waits while each statement runs.
 */
class InlineConnection implements DatabaseConnection {
  open = false;

  constructor(private readonly writer: SqlitePointReader) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Outside its transaction the writer connection could see another transaction's uncommitted rows.
    if (!this.open) throw new Error('the inline writer runs statements inside its transactions only');
    return this.writer.run(query.sql, query.parameters) as QueryResult<R>;
  }

  // biome-ignore lint/correctness/useYield: a short transaction has nothing to stream
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported in a short transaction');
  }
}

/** How often a begin refused by another process's lock is tried again (the event loop never waits for a lock). */
const BUSY_RETRY_MS = 5;

class InlineTransactionDriver implements Driver {
  private readonly connection: InlineConnection;

  constructor(
    private readonly writer: SqlitePointReader,
    private readonly turn: WriterTurn,
    private readonly busyTimeoutMs: number,
  ) {
    this.connection = new InlineConnection(writer);
  }

  async init(): Promise<void> {}

  // One connection for all: the writer's turn, taken at begin, keeps its transactions one at a time.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }

  async releaseConnection(): Promise<void> {}

  async beginTransaction(): Promise<void> {
    const waiting = this.turn.acquire();
    if (waiting) await waiting;
    try {
      await this.beginImmediate();
    } catch (error) {
      this.turn.release();
      throw error;
    }
    this.connection.open = true;
  }

  /** BEGIN IMMEDIATE; another process holding the lock (a CLI command) is waited for asynchronously, as busy_timeout would. */
  private async beginImmediate(): Promise<void> {
    const giveUpAt = Date.now() + this.busyTimeoutMs;
    for (;;) {
      try {
        this.writer.run('begin immediate', []);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= giveUpAt) throw error;
      }
      await sleep(BUSY_RETRY_MS);
    }
  }

  async commitTransaction(): Promise<void> {
    // A commit that fails leaves the transaction open: Kysely rolls it back next, and that ends the turn.
    this.writer.run('commit', []);
    this.writer.noteWrite();
    this.end();
  }

  async rollbackTransaction(): Promise<void> {
    try {
      // SQLite has already rolled back by itself after some failures (a full disk, an I/O error).
      if (this.writer.writerInTransaction) this.writer.run('rollback', []);
    } finally {
      this.end();
    }
  }

  private end() {
    if (!this.connection.open) return;
    this.connection.open = false;
    this.turn.release();
  }

  async destroy(): Promise<void> {}
}

/** A Kysely object whose transactions run on the main thread's writer connection. */
export function inlineTransactions(
  writer: SqlitePointReader,
  turn: WriterTurn,
  busyTimeoutMs: number,
  log: LogConfig | undefined,
): Kysely<Database> {
  const dialect: KyselyDialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new InlineTransactionDriver(writer, turn, busyTimeoutMs),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return new Kysely<Database>({ dialect, log });
}

const shortTransactions = new WeakMap<Kysely<Database>, Kysely<Database>>();

/** Lets `shortTransaction(db)` run this database's short transactions on `inline`. */
export function registerShortTransactions(db: Kysely<Database>, inline: Kysely<Database>): void {
  shortTransactions.set(db, inline);
}

/**
 * A transaction of a handful of point reads and writes (an app's redemption, a purchase): on
 * SQLite on the main thread's writer connection, elsewhere an ordinary transaction.
 */
export function shortTransaction(db: Kysely<Database>): TransactionBuilder<Database> {
  return (shortTransactions.get(db) ?? db).transaction();
}
