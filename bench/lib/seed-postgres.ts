import os from 'node:os';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../packages/server/src/db/index';
import type { PhaseReport } from './seed';

/** The tables the seed fills, in an order that respects their foreign keys. */
const seededTables = ['users', 'coin_records', 'messages', 'message_reads', 'row_counts'] as const;
const BATCH = 20_000;

export interface PostgresSeed {
  /** DATABASE_URL of the seeded database, for the server. */
  url: string;
  phases: PhaseReport[];
  totalSeconds: number;
  drop(): Promise<void>;
}

/** `url` with another database name. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Loads the data set the SQLite seed made into a fresh PostgreSQL database (the same rows, so the
 * two databases are measured on equal terms): the server's migrations, then each table copied in
 * batches with its secondary indexes built after the load and triggers off (the kept counts are
 * copied as they are), sequences moved past the ids, and VACUUM ANALYZE for the planner.
 */
export async function seedPostgres(options: {
  sqliteFile: string;
  /** Any database on the server: the seed creates its own beside it. */
  adminUrl: string;
  log: (line: string) => void;
}): Promise<PostgresSeed> {
  const started = performance.now();
  const name = `appdesk_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = withDatabase(options.adminUrl, name);
  const drop = async () => {
    const client = new pg.Client({ connectionString: options.adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };

  const phases: PhaseReport[] = [];
  const phase = (phaseName: string, rows: number, since: number) => {
    const seconds = (performance.now() - since) / 1000;
    const report = { phase: phaseName, rows, seconds, rowsPerSecond: rows / Math.max(seconds, 1e-6) };
    phases.push(report);
    options.log(
      `  ${phaseName.padEnd(16)} ${rows.toLocaleString('en-US').padStart(11)} rows  ${seconds.toFixed(2).padStart(7)} s  ${Math.round(report.rowsPerSecond).toLocaleString('en-US').padStart(9)} rows/s`,
    );
  };

  const handle = openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }

  const sqlite = new Database(options.sqliteFile, { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A bulk load: no triggers (kept counts arrive with row_counts) and no foreign-key checks.
    await client.query('set session_replication_role = replica');
    await client.query('delete from row_counts');
    for (const table of seededTables) {
      const since = performance.now();
      const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = $1
           and indexname not in (select conname from pg_constraint)`,
        [table],
      );
      for (const index of indexes) await client.query(`drop index ${index.indexname}`);
      const { rows: columnRows } = await client.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1
           order by ordinal_position`,
        [table],
      );
      const columns = columnRows.map((c) => c.column_name).join(', ');
      const select = sqlite.prepare(
        `select rowid as _rowid, ${columns} from ${table} where rowid > ? order by rowid limit ?`,
      );
      let after = 0;
      let copied = 0;
      for (;;) {
        const rows = select.all(after, BATCH) as ({ _rowid: number } & Record<string, unknown>)[];
        if (rows.length === 0) break;
        after = rows[rows.length - 1]._rowid;
        await client.query(
          `insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, $1)`,
          [JSON.stringify(rows)],
        );
        copied += rows.length;
      }
      phase(`pg ${table}`, copied, since);
      if (indexes.length > 0) {
        const built = performance.now();
        for (const index of indexes) await client.query(index.indexdef);
        phase(`pg ${table} idx (${indexes.length})`, copied, built);
      }
    }
    for (const table of ['users', 'coin_records', 'messages']) {
      await client.query(
        `select setval(pg_get_serial_sequence('${table}', 'id'), greatest((select max(id) from ${table}), 1))`,
      );
    }
    const analysed = performance.now();
    for (const table of seededTables) await client.query(`vacuum analyze ${table}`);
    phase('pg vacuum analyze', 0, analysed);
  } finally {
    await client.end();
    sqlite.close();
  }
  return { url, phases, totalSeconds: (performance.now() - started) / 1000, drop };
}
