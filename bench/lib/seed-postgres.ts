import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { digitSuffixes, grams } from '../../packages/server/src/db/grams.mjs';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../packages/server/src/db/index';
import { hasColumn } from './apps';
import type { PhaseReport } from './seed';

/** The tables the seed fills, in an order that respects their foreign keys. */
const seededTables = ['users', 'coin_records', 'messages', 'message_reads', 'audit_log', 'row_counts'] as const;

/** A value in COPY's text format: \N for null; backslash, tab, newline and return escaped. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] as string);
}

/** A COPY … FROM STDIN on `client`, written in 1 MiB chunks that wait for the server to keep up. */
function copyInto(client: pg.Client, statement: string) {
  const stream = client.query(copyFrom(statement));
  const done = finished(stream);
  let chunk = '';
  return {
    async write(text: string) {
      chunk += text;
      if (chunk.length < 1 << 20) return;
      const more = stream.write(chunk);
      chunk = '';
      if (!more) await once(stream, 'drain');
    },
    async end() {
      stream.end(chunk);
      await done;
    },
  };
}

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
 * two databases are measured on equal terms): the server's migrations, then each table copied
 * with COPY, its secondary indexes built after the load and triggers off (the kept counts are
 * copied as they are), sequences moved past the ids, and VACUUM ANALYZE for the planner.
 * `moreTables`, `migrate` and `afterCopy` let a feature's benchmark copy its tables too and then
 * rebuild what its triggers would have kept (bench/dashboard.ts rolls the counters up).
 */
export async function seedPostgres(options: {
  sqliteFile: string;
  /** Any database on the server: the seed creates its own beside it. */
  adminUrl: string;
  log: (line: string) => void;
  /** Tables copied after the seeded ones (before row_counts), e.g. a feature's the SQLite file has. */
  moreTables?: string[];
  /** Migrates the fresh database (default: the core migrations; features' tables need theirs too). */
  migrate?: (handle: DatabaseHandle) => Promise<void>;
  /** Runs on the loading connection once every table is copied (still with triggers off). */
  afterCopy?: (client: pg.Client) => Promise<void>;
}): Promise<PostgresSeed> {
  const sqlite = new Database(options.sqliteFile, { readonly: true });
  // The apps the seed registered (issue 29), where the schema has them: copied whole, first.
  const apps = hasColumn(sqlite, 'apps', 'code') ? ['apps'] : [];
  const tables = [
    ...apps,
    ...seededTables.filter((t) => t !== 'row_counts'),
    ...(options.moreTables ?? []),
    'row_counts',
  ];
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
    await (options.migrate ?? migrateToLatest)(handle);
  } finally {
    await handle.close();
  }

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const piecesClient = new pg.Client({ connectionString: url });
  await piecesClient.connect();
  const suffixesClient = new pg.Client({ connectionString: url });
  await suffixesClient.connect();
  try {
    // A bulk load: no triggers (kept counts arrive with row_counts) and no foreign-key checks.
    await client.query('set session_replication_role = replica');
    await client.query('alter table nickname_pieces drop constraint nickname_pieces_pkey');
    await client.query('alter table digit_suffixes drop constraint digit_suffixes_pkey');
    // The counts this database keeps: the SQLite file has more when the server there migrated its
    // features too, and a feature migrated here later inserts its own (a copied one would collide).
    const keptNames = (await client.query<{ name: string }>('select name from row_counts')).rows.map((r) => r.name);
    await client.query('delete from row_counts');
    // The migration registered the first app; the copy brings it back with the seed's others, ids kept.
    for (const table of apps) await client.query(`delete from ${table}`);
    for (const table of tables) {
      const since = performance.now();
      const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = $1
           and indexname not in (select conname from pg_constraint)`,
        [table],
      );
      for (const index of indexes) await client.query(`drop index ${index.indexname}`);
      // The columns both databases have: a data set seeded before a later migration lacks its columns,
      // which PostgreSQL then fills with their defaults.
      const inSqlite = new Set(
        (sqlite.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name),
      );
      const { rows: pgColumns } = await client.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1
           order by ordinal_position`,
        [table],
      );
      const columnRows = pgColumns.filter((c) => inSqlite.has(c.column_name));
      const columns = columnRows.map((c) => c.column_name).join(', ');
      // COPY in PostgreSQL's text format, streamed row by row from SQLite: no table is ever held whole.
      const copy = copyInto(client, `copy ${table} (${columns}) from stdin`);
      // The pieces PostgreSQL keeps of each nickname by trigger (migration 0008), made here from the
      // same function (db/grams.mjs) and copied on a second connection at the same time.
      const pieces =
        table === 'users' ? copyInto(piecesClient, 'copy nickname_pieces (piece, user_id) from stdin') : null;
      // And each user's digit suffixes (migration 0010, db/grams.mjs), on a third connection.
      const suffixes =
        table === 'users' ? copyInto(suffixesClient, 'copy digit_suffixes (suffix, user_id) from stdin') : null;
      const phoneAt = columnRows.findIndex((c) => c.column_name === 'phone');
      const nicknameAt = columnRows.findIndex((c) => c.column_name === 'nickname');
      const idAt = columnRows.findIndex((c) => c.column_name === 'id');
      const onlyKept = table === 'row_counts' ? `where name in (${keptNames.map(() => '?').join(', ') || 'null'})` : '';
      const rows = sqlite
        .prepare(`select ${columns} from ${table} ${onlyKept} order by rowid`)
        .raw()
        .iterate(...(table === 'row_counts' ? keptNames : [])) as Iterable<unknown[]>;
      let copied = 0;
      for (const row of rows) {
        const behind = copy.write(`${row.map(copyText).join('\t')}\n`);
        if (behind) await behind;
        const nicknamePieces = pieces ? grams(row[nicknameAt] as string) : '';
        if (pieces && nicknamePieces !== '') {
          const id = row[idAt];
          const lines = nicknamePieces.split(' ').map((piece) => `${copyText(piece)}\t${id}\n`);
          const piecesBehind = pieces.write(lines.join(''));
          if (piecesBehind) await piecesBehind;
        }
        if (suffixes) {
          const lines = digitSuffixes(row[phoneAt] as string, row[nicknameAt] as string | null).map(
            (suffix) => `${copyText(suffix)}\t${row[idAt]}\n`,
          );
          const suffixesBehind = suffixes.write(lines.join(''));
          if (suffixesBehind) await suffixesBehind;
        }
        copied++;
      }
      await copy.end();
      await pieces?.end();
      await suffixes?.end();
      phase(`pg ${table}`, copied, since);
      if (indexes.length > 0) {
        const built = performance.now();
        for (const index of indexes) await client.query(index.indexdef);
        phase(`pg ${table} idx (${indexes.length})`, copied, built);
      }
    }
    const keyed = performance.now();
    await client.query('alter table nickname_pieces add primary key (piece, user_id)');
    phase('pg nickname_pieces key', 0, keyed);
    const suffixesKeyed = performance.now();
    await client.query('alter table digit_suffixes add primary key (suffix, user_id)');
    phase('pg digit_suffixes key', 0, suffixesKeyed);
    for (const table of [...apps, 'users', 'coin_records', 'messages', 'audit_log', ...(options.moreTables ?? [])]) {
      await client.query(
        `select setval(s, greatest((select max(id) from ${table}), 1))
           from (select pg_get_serial_sequence('${table}', 'id') as s) as q where s is not null`,
      );
    }
    if (options.afterCopy) await options.afterCopy(client);
    const analysed = performance.now();
    for (const table of [...tables, 'nickname_pieces', 'digit_suffixes']) await client.query(`vacuum analyze ${table}`);
    phase('pg vacuum analyze', 0, analysed);
    // The copy leaves gigabytes of dirty pages: written out now, not by the checkpointer and the
    // kernel while the first PostgreSQL scenarios are measured (they ran up to twice as slow).
    const flushed = performance.now();
    await client.query('checkpoint');
    execFileSync('sync');
    phase('pg checkpoint + sync', 0, flushed);
  } finally {
    await client.end();
    await piecesClient.end();
    await suffixesClient.end();
    sqlite.close();
  }
  return { url, phases, totalSeconds: (performance.now() - started) / 1000, drop };
}
