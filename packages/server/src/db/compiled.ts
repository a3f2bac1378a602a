import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index';

/** Runs a point read synchronously (SQLite: a main-thread connection); none on PostgreSQL. */
export type PointReader = {
  all(sql: string, parameters: readonly unknown[]): unknown[];
  /** A one-row write run now, or undefined when it has to go through the pool (the writer's turn is taken). */
  write(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
};
const pointReaders = new WeakMap<Db, PointReader>();

/** Lets `compiledOnce(…, { pointRead: true })` queries of this database skip the connection pool. */
export function registerPointReader(db: Db, reader: PointReader): void {
  pointReaders.set(db, reader);
}

/**
 * A hot query whose SQL never changes, only its values: built and compiled once per database,
 * then run with each call's values. Building a Kysely query copies its node at every step, which
 * costs tens of microseconds on this runtime (object spreads are slow in Node 20's V8); the
 * session lookup and the kept totals run on nearly every call.
 *
 * `build` must use each argument exactly once, as one bound value (no lists, no raw SQL from it).
 * Inside a transaction (another Kysely object) the query is compiled as usual.
 */
export function compiledOnce<A extends readonly (string | number)[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
  options: {
    /**
     * The query finds rows by a unique key and answers in microseconds: on SQLite it runs on the
     * main thread's own read-only connection (sqlite-pool.ts SqlitePointReader).
     */
    pointRead?: boolean;
    /**
     * The query writes one row through its primary key or a unique index (an insert of app
     * traffic): on SQLite it runs on the main thread's own connection when no other write is
     * under way (sqlite-pool.ts SqlitePointReader.write), else through the pool.
     */
    pointWrite?: boolean;
  } = {},
): (db: Db, ...args: A) => Promise<R[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<R>; slots: number[] }>();
  const prepare = (db: Db, arity: number) => {
    // Unique stand-ins show where each argument lands among the bound values.
    const stand = Array.from({ length: arity }, (_, i) => `\u0000compiledOnce:${i}`);
    const query = build(db, ...(stand as unknown as A)).compile();
    const slots = stand.map((s) => {
      const at = query.parameters.indexOf(s);
      if (at < 0 || query.parameters.lastIndexOf(s) !== at) {
        throw new Error(`compiledOnce: argument ${s.slice(-1)} must be bound exactly once`);
      }
      return at;
    });
    return { query, slots };
  };
  return async (db, ...args) => {
    if (db.isTransaction) return (await db.executeQuery(build(db, ...args))).rows;
    let entry = compiled.get(db);
    if (!entry) {
      entry = prepare(db, args.length);
      compiled.set(db, entry);
    }
    const parameters = entry.query.parameters.slice();
    for (let i = 0; i < args.length; i++) parameters[entry.slots[i]] = args[i];
    const { query, queryId, sql } = entry.query;
    const run: CompiledQuery<R> = { query, queryId, sql, parameters };
    if (options.pointWrite) {
      const rows = pointReaders.get(db)?.write(sql, parameters);
      if (rows) return rows as R[];
      return (await db.executeQuery(run)).rows;
    }
    return runCompiled(db, run, options.pointRead === true);
  };
}

/** Runs a compiled read: on the database's point reader when `inline` and it has one, else through the pool. */
async function runCompiled<R>(db: Db, compiled: CompiledQuery<R>, inline: boolean): Promise<R[]> {
  const reader = inline ? pointReaders.get(db) : undefined;
  if (reader) return reader.all(compiled.sql, compiled.parameters) as R[];
  return (await db.executeQuery(compiled)).rows;
}
