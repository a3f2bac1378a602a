import type { Db } from '../db/index';

/** Operators' sessions one process keeps at most (there are a handful; past it, it starts over). */
const MAX_KEPT = 1000;

/** The channel the session triggers notify (migration sessions/202611250200_session_change_notices). */
export const SESSION_CHANGES = 'appdesk_session_changes';

/** What the cache's listener reports (db/pg-listen.ts). */
export interface ListenEvents {
  /** Listening: from now on every change is heard. */
  open(): void;
  /** A session was deleted or an operator's row changed, here or in another instance. */
  notified(): void;
  /** The listening connection is gone: changes may go unheard until `open` again. */
  lost(): void;
}

/**
 * Operators' sessions, kept in memory between their calls on PostgreSQL: a back-office call then
 * costs one round trip to the database, not two (the session lookup was half of a list page's
 * database work and of Node's protocol work, issue 14). SQLite needs none: its lookup is a
 * synchronous read on the main thread.
 *
 * Kept only while it cannot be wrong for longer than a notification takes to arrive:
 * - every change that could alter a kept row (a session deleted, an operator's row updated or
 *   deleted, here or in another instance) is notified by triggers (migration
 *   sessions/202611250200_session_change_notices) and clears the cache;
 * - this process's own writes to `users` or `sessions` clear it as they complete, before the call
 *   that made them answers (db/pg-prepared.ts), so a sign-out is final for the next call at once;
 * - a lookup that was under way when the cache was cleared is not kept (the generation moved);
 * - while the listening connection is down nothing is kept or served;
 * - a row is served only until it needs its once-a-minute touch (core/sessions.ts), so no entry
 *   outlives a minute without a database read.
 * App users' sessions are never kept: their rows change with every coin, and notifying those
 * changes would serialise the database's commits.
 */
export class SessionCache<Row extends { is_admin: number }> {
  #rows = new Map<string, Row>();
  #generation = 0;
  #state: 'idle' | 'connecting' | 'open' | 'closed' = 'idle';
  #stop: (() => void) | undefined;
  /** Kept rows handed to lookups since start (the tests read it). */
  served = 0;

  /** `listen` starts listening (on first use) and returns how to stop. */
  constructor(private readonly listen: (events: ListenEvents) => () => void) {}

  /** Listening, so rows are kept and served. */
  get open(): boolean {
    return this.#state === 'open';
  }

  /** Moves on every clearing; a lookup keeps its row only if none happened while it ran. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * The kept row of a token, if any. A notification that arrived together with this call is heard
   * first (the check phase comes after every socket that was ready), so a change another
   * instance committed before this call arrived is never answered from the cache.
   */
  async read(tokenHash: string): Promise<Row | undefined> {
    if (this.#state !== 'open') {
      if (this.#state === 'idle') this.#start();
      return undefined;
    }
    if (!this.#rows.has(tokenHash)) return undefined;
    await new Promise<void>((resolve) => setImmediate(resolve));
    // Cleared meanwhile (a notification, a lost listener, close) means not there any more.
    const row = this.#rows.get(tokenHash);
    if (row) this.served += 1;
    return row;
  }

  /** Keeps an operator's row read when the generation was `since`. */
  keep(tokenHash: string, row: Row, since: number | undefined): void {
    if (this.#state !== 'open' || since !== this.#generation || row.is_admin !== 1) return;
    if (this.#rows.size >= MAX_KEPT) this.#rows.clear();
    this.#rows.set(tokenHash, row);
  }

  /** Drops every kept row. */
  forget(): void {
    this.#generation += 1;
    this.#rows.clear();
  }

  close(): void {
    this.#state = 'closed';
    this.#stop?.();
    this.forget();
  }

  #start(): void {
    this.#state = 'connecting';
    this.#stop = this.listen({
      open: () => {
        if (this.#state === 'closed') return;
        this.forget();
        this.#state = 'open';
      },
      notified: () => this.forget(),
      lost: () => {
        if (this.#state === 'closed') return;
        this.#state = 'connecting';
        this.forget();
      },
    });
  }
}

const caches = new WeakMap<Db, SessionCache<{ is_admin: number }>>();

/** Gives a PostgreSQL database its session cache (db/index.ts). */
export function registerSessionCache(db: Db, cache: SessionCache<{ is_admin: number }>): void {
  caches.set(db, cache);
}

/** The database's session cache: none on SQLite, nor inside a transaction (its own Kysely object). */
export function sessionCacheOf<Row extends { is_admin: number }>(db: Db): SessionCache<Row> | undefined {
  return caches.get(db) as SessionCache<Row> | undefined;
}
