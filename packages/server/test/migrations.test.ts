/**
 * Migrations are all or nothing on both databases: a migration that fails part way (or a server
 * stopped in the middle of one) leaves no table made and no migration recorded, so the next start
 * runs them again from where the last complete run ended.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/index';
import type { Migration } from '../src/db/migrations/index';
import { openTestDatabase, type TestDatabase } from './harness';

let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-migrations-'));
  database = await openTestDatabase(dataDir);
  await migrateToLatest(database.handle);
});
afterAll(async () => {
  await database.handle.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const createTable = (name: string) => (db: Kysely<unknown>) =>
  db.schema
    .createTable(name)
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .execute();

const first: Migration = { name: '209901010000_first', up: createTable('migration_probe_a') };
const failing: Migration = {
  name: '209901010001_failing',
  up: async (db) => {
    await createTable('migration_probe_b')(db);
    await sql`insert into migration_probe_a (id) values (1)`.execute(db);
    throw new Error('stopped half way');
  },
};
const mended: Migration = {
  name: '209901010001_failing',
  up: async (db) => {
    await createTable('migration_probe_b')(db);
    await sql`insert into migration_probe_a (id) values (1)`.execute(db);
  },
};

/** Whether this database's own schema has the table (Kysely's introspection reads every schema, and other tests drop theirs meanwhile). */
async function tableExists(name: string): Promise<boolean> {
  const { db, dialect } = database.handle;
  const { rows } =
    dialect === 'postgres'
      ? await sql`select 1 from pg_tables where schemaname = current_schema() and tablename = ${name}`.execute(db)
      : await sql`select 1 from sqlite_master where type = 'table' and name = ${name}`.execute(db);
  return rows.length > 0;
}

async function recorded(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration where name like '2099%'`.execute(
    database.handle.db,
  );
  return rows.map((r) => r.name).sort();
}

it('a failing migration leaves nothing of itself nor of the migrations run with it', async () => {
  await expect(migrateToLatest(database.handle, [first, failing])).rejects.toThrow(/数据库迁移失败/);
  expect(await tableExists('migration_probe_a')).toBe(false);
  expect(await tableExists('migration_probe_b')).toBe(false);
  expect(await recorded()).toEqual([]);

  // The next start, with the mistake mended, runs both from the start.
  await migrateToLatest(database.handle, [first, mended]);
  expect(await tableExists('migration_probe_a')).toBe(true);
  expect(await tableExists('migration_probe_b')).toBe(true);
  expect(await recorded()).toEqual([first.name, mended.name]);
  const { rows } = await sql<{ n: number }>`select count(*) as n from migration_probe_a`.execute(database.handle.db);
  expect(Number(rows[0]?.n)).toBe(1);
});
