/**
 * SQLite writers take turns inside the process (db/sqlite-pool.ts WriterTurn): concurrent writes
 * and transactions on the pooled connections all succeed without meeting at SQLite's lock, and a
 * writer kept waiting past the busy timeout fails as a locked database would (SQLITE_BUSY → 503).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledOnce } from '../src/db/compiled';
import { type Db, openDatabase } from '../src/db/index';
import { classifyOutage } from '../src/db/outage';
import { shortTransaction } from '../src/db/sqlite-inline';
import { WriterTurn } from '../src/db/sqlite-pool';
import { testDb } from './harness';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(busyTimeoutMs: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-turn-'));
  dirs.push(dataDir);
  return openDatabase({ dataDir, busyTimeoutMs, poolSize: 3 });
}

describe('WriterTurn', () => {
  it('grants the turn in order and fails a waiter past its timeout with SQLITE_BUSY', async () => {
    const turn = new WriterTurn(50);
    expect(turn.acquire()).toBeUndefined();
    const order: number[] = [];
    const second = turn.acquire()?.then(() => order.push(2));
    const third = turn.acquire()?.then(() => order.push(3));
    turn.release();
    await second;
    turn.release();
    await third;
    expect(order).toEqual([2, 3]);
    const late = turn.acquire();
    await expect(late).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    turn.release();
    expect(turn.acquire()).toBeUndefined();
  });
});

describe.runIf(testDb === 'sqlite')('SQLite writers in one process', () => {
  it('run 200 concurrent writes and 20 transactions, none refused', async () => {
    const handle = open(5000);
    try {
      await sql`create table t (id integer primary key, n integer not null)`.execute(handle.db);
      const writes = Array.from({ length: 200 }, (_, i) => sql`insert into t (n) values (${i})`.execute(handle.db));
      const transactions = Array.from({ length: 20 }, (_, i) =>
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into t (n) values (${1000 + i})`.execute(trx);
          await sql`update t set n = n + 1 where n = ${1000 + i}`.execute(trx);
        }),
      );
      const reads = Array.from({ length: 20 }, () => sql`select count(*) as c from t`.execute(handle.db));
      await Promise.all([...writes, ...transactions, ...reads]);
      const { rows } = await sql<{ c: number }>`select count(*) as c from t`.execute(handle.db);
      expect(rows[0].c).toBe(220);
    } finally {
      await handle.close();
    }
  });

  it('a write waiting longer than the busy timeout behind a transaction fails as an outage; reads go on', async () => {
    const handle = open(100);
    try {
      await sql`create table t (id integer primary key, n integer not null)`.execute(handle.db);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = handle.db.transaction().execute(async (trx) => {
        await sql`insert into t (n) values (1)`.execute(trx);
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Its outcome is taken at once: the rejection may come before the read below answers.
      const write = sql`insert into t (n) values (2)`.execute(handle.db).then(
        () => null,
        (e: unknown) => e,
      );
      const read = await sql<{ c: number }>`select count(*) as c from t`.execute(handle.db);
      expect(read.rows[0].c).toBe(0);
      // A passive checkpoint takes no write lock, so it does not wait for the writer's turn either.
      const checkpoint = await sql<{ busy: number }>`pragma wal_checkpoint(passive)`.execute(handle.db);
      expect(checkpoint.rows[0].busy).toBe(0);
      const error = await write;
      expect(error).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(classifyOutage(error)).toBeTruthy();
      release();
      await slow;
      await sql`insert into t (n) values (3)`.execute(handle.db);
      const after = await sql<{ n: number }>`select n from t order by id`.execute(handle.db);
      expect(after.rows.map((r) => r.n)).toEqual([1, 3]);
    } finally {
      await handle.close();
    }
  });

  it('a failed transaction gives the turn back', async () => {
    const handle = open(100);
    try {
      await sql`create table t (id integer primary key, n integer not null unique)`.execute(handle.db);
      await sql`insert into t (n) values (1)`.execute(handle.db);
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into t (n) values (1)`.execute(trx);
        }),
      ).rejects.toThrow(/UNIQUE/);
      await expect(sql`insert into t (n) values (1)`.execute(handle.db)).rejects.toThrow(/UNIQUE/);
      await sql`insert into t (n) values (2)`.execute(handle.db);
      const after = await sql<{ c: number }>`select count(*) as c from t`.execute(handle.db);
      expect(after.rows[0].c).toBe(2);
    } finally {
      await handle.close();
    }
  });

  it('point writes run on the main thread when the turn is free, else wait their turn in the pool', async () => {
    const handle = open(1000);
    try {
      await sql`create table t (id integer primary key, n integer not null unique)`.execute(handle.db);
      const insert = compiledOnce(
        (db: Db, n: number) =>
          (db as unknown as import('kysely').Kysely<{ t: { id: import('kysely').Generated<number>; n: number } }>)
            .insertInto('t')
            .values({ n })
            .returning('id') as never,
        { pointWrite: true },
      );
      expect(await insert(handle.db, 1)).toEqual([{ id: 1 }]);
      // A transaction holds the turn: the point write waits for it and then lands after it.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = handle.db.transaction().execute(async (trx) => {
        await sql`insert into t (n) values (2)`.execute(trx);
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const waiting = insert(handle.db, 3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      await slow;
      expect(await waiting).toEqual([{ id: 3 }]);
      // Constraint errors come back as from the pool; 600 writes ask for a checkpoint on the way.
      await expect(insert(handle.db, 1)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
      await Promise.all(Array.from({ length: 600 }, (_, i) => insert(handle.db, 100 + i)));
      const { rows } = await sql<{ c: number }>`select count(*) as c from t`.execute(handle.db);
      expect(rows[0].c).toBe(603);
    } finally {
      await handle.close();
    }
  });

  it('short transactions run on the main thread among pooled writers: all land, in turn, and a failed one leaves nothing', async () => {
    const handle = open(2000);
    try {
      await sql`create table t (id integer primary key, n integer not null unique)`.execute(handle.db);
      const short = Array.from({ length: 50 }, (_, i) =>
        shortTransaction(handle.db).execute(async (trx) => {
          await sql`insert into t (n) values (${i})`.execute(trx);
          // A read inside sees the transaction's own row; a pooled connection does not see it yet.
          const own = await sql<{ c: number }>`select count(*) as c from t where n = ${i}`.execute(trx);
          expect(own.rows[0].c).toBe(1);
          await sql`update t set n = n + 1000 where n = ${i}`.execute(trx);
        }),
      );
      const pooled = Array.from({ length: 50 }, (_, i) =>
        handle.db.transaction().execute((trx) => sql`insert into t (n) values (${5000 + i})`.execute(trx)),
      );
      const points = Array.from({ length: 50 }, (_, i) =>
        sql`insert into t (n) values (${9000 + i})`.execute(handle.db),
      );
      await Promise.all([...short, ...pooled, ...points]);
      const { rows } = await sql<{ c: number; low: number }>`
        select count(*) as c, sum(case when n < 1000 then 1 else 0 end) as low from t`.execute(handle.db);
      expect(rows[0]).toEqual({ c: 150, low: 0 });

      // A constraint failure rolls the whole transaction back and gives the turn to the next writer.
      await expect(
        shortTransaction(handle.db).execute(async (trx) => {
          await sql`insert into t (n) values (1)`.execute(trx);
          await sql`insert into t (n) values (5000)`.execute(trx);
        }),
      ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
      await sql`insert into t (n) values (2)`.execute(handle.db);
      const after = await sql<{ n: number }>`select n from t where n < 1000 order by n`.execute(handle.db);
      expect(after.rows.map((r) => r.n)).toEqual([2]);
    } finally {
      await handle.close();
    }
  });

  it("a short transaction waits for another process's write lock without holding up the event loop, then gives up as busy", async () => {
    const handle = open(300);
    try {
      await sql`create table t (id integer primary key, n integer not null)`.execute(handle.db);
      const file = path.join(dirs[dirs.length - 1], 'appdesk.sqlite');
      const other = new SQLite(file);
      try {
        other.exec('begin immediate');
        let ticks = 0;
        const ticking = setInterval(() => {
          ticks += 1;
        }, 10);
        const late = shortTransaction(handle.db)
          .execute((trx) => sql`insert into t (n) values (1)`.execute(trx))
          .then(
            () => null,
            (e: unknown) => e,
          );
        // Released within the timeout: the waiting transaction then commits.
        const inTime = new Promise((resolve) => setTimeout(resolve, 100)).then(() => other.exec('commit'));
        await inTime;
        expect(await late).toBeNull();
        expect(ticks).toBeGreaterThan(3);
        // Held past the timeout: refused as a locked database, and the next writer still gets its turn.
        other.exec('begin immediate');
        const refused = await shortTransaction(handle.db)
          .execute((trx) => sql`insert into t (n) values (2)`.execute(trx))
          .then(
            () => null,
            (e: unknown) => e,
          );
        clearInterval(ticking);
        expect(refused).toMatchObject({ code: 'SQLITE_BUSY' });
        expect(classifyOutage(refused)).toBeTruthy();
        other.exec('rollback');
        await shortTransaction(handle.db).execute((trx) => sql`insert into t (n) values (3)`.execute(trx));
        const { rows } = await sql<{ n: number }>`select n from t order by id`.execute(handle.db);
        expect(rows.map((r) => r.n)).toEqual([1, 3]);
      } finally {
        other.close();
      }
    } finally {
      await handle.close();
    }
  });
});
