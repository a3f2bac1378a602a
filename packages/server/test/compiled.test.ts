/** compiledOnce: a hot query compiled once answers exactly as the same query built every time. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../src/db/compiled';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/db/index';
import { testDb } from './harness';

let handle: DatabaseHandle;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-compiled-'));
  handle = openDatabase({ dataDir, poolSize: 2 });
  await migrateToLatest(handle);
  await handle.db
    .insertInto('row_counts')
    .values([
      { name: 'compiled.a', n: 3 },
      { name: 'compiled.b', n: 5 },
    ])
    .execute();
});
afterAll(async () => {
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const countsBetween = compiledOnce((db, low: number, name: string) =>
  db.selectFrom('row_counts').select(['name', 'n']).where('n', '>=', low).where('name', '!=', name).orderBy('name'),
);

describe.runIf(testDb === 'sqlite')('compiledOnce', () => {
  it('binds each call’s values in their places, call after call', async () => {
    const names = (rows: { name: string }[]) => rows.map((r) => r.name).filter((n) => n.startsWith('compiled.'));
    expect(names(await countsBetween(handle.db, 0, 'x'))).toEqual(['compiled.a', 'compiled.b']);
    expect(names(await countsBetween(handle.db, 4, 'x'))).toEqual(['compiled.b']);
    expect(names(await countsBetween(handle.db, 0, 'compiled.a'))).toEqual(['compiled.b']);
    // In a transaction the query is built as usual and sees the transaction's own writes.
    await handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('row_counts').values({ name: 'compiled.c', n: 9 }).execute();
      expect(names(await countsBetween(trx, 6, 'x'))).toEqual(['compiled.c']);
    });
    expect(names(await countsBetween(handle.db, 6, 'x'))).toEqual(['compiled.c']);
  });

  it('a point read runs on the main thread’s connection and sees every committed write at once', async () => {
    const countOf = compiledOnce(
      (db, name: string) => db.selectFrom('row_counts').select('n').where('name', '=', name),
      {
        pointRead: true,
      },
    );
    expect(await countOf(handle.db, 'compiled.a')).toEqual([{ n: 3 }]);
    await handle.db.updateTable('row_counts').set({ n: 4 }).where('name', '=', 'compiled.a').execute();
    expect(await countOf(handle.db, 'compiled.a')).toEqual([{ n: 4 }]);
    // Inside a transaction it reads through the transaction, which sees its own uncommitted change.
    await handle.db.transaction().execute(async (trx) => {
      await trx.updateTable('row_counts').set({ n: 40 }).where('name', '=', 'compiled.a').execute();
      expect(await countOf(trx, 'compiled.a')).toEqual([{ n: 40 }]);
      expect(await countOf(handle.db, 'compiled.a')).toEqual([{ n: 4 }]);
    });
    expect(await countOf(handle.db, 'compiled.a')).toEqual([{ n: 40 }]);
  });

  it('refuses a query that uses an argument other than as one bound value', async () => {
    const twice = compiledOnce((db, name: string) =>
      db.selectFrom('row_counts').select('n').where('name', '=', name).where('name', '!=', name),
    );
    await expect(twice(handle.db, 'compiled.a')).rejects.toThrow(/exactly once/);
  });
});
