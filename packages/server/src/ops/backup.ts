import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db, Dialect } from '../db/index';
import {
  appliedMigrations,
  countRows,
  listFiles,
  MANIFEST,
  type Manifest,
  pgToolArgs,
  type Query,
  runProgram,
  sha256File,
} from './backup-common';

/** The running product a backup reads: its database (through the server's own pool) and data folder. */
export interface BackupSource {
  db: Db;
  dialect: Dialect;
  dataDir: string;
  /** PostgreSQL: the URL pg_dump connects to. */
  databaseUrl?: string;
  /** Files on S3 stay there (the object store's own versioning or replication keeps them): not archived. */
  filesOnS3?: boolean;
}

/** Hard-links (or copies, across file systems) every stored file not yet in `into`; answers the keys linked. */
async function linkFiles(root: string, into: string, done: Set<string>): Promise<void> {
  for (const key of await listFiles(root)) {
    if (done.has(key)) continue;
    const target = path.join(into, key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await link(path.join(root, key), target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // deleted meanwhile: if the snapshot still names it, it is reported missing
      if (code !== 'EXDEV' && code !== 'EPERM') throw error;
      await copyFile(path.join(root, key), target);
    }
    done.add(key);
  }
}

/** SQLite: VACUUM INTO on a pool connection (a worker thread): one read transaction, so one consistent point. */
async function snapshotSqlite(source: BackupSource, stage: string) {
  const file = path.join(stage, 'database.sqlite');
  await sql`vacuum into ${file}`.execute(source.db);
  const copy = new SQLite(file, { readonly: true });
  const query: Query = async (text) => copy.prepare(text).all() as Record<string, unknown>[];
  return { file, query, schema: undefined, close: async () => copy.close() };
}

/**
 * PostgreSQL: a repeatable-read transaction exports its snapshot; pg_dump dumps exactly that
 * snapshot, and the row counts and the list of files are read in the same transaction.
 */
async function snapshotPostgres(source: BackupSource, stage: string) {
  if (!source.databaseUrl) throw new Error('PostgreSQL 备份需要 DATABASE_URL');
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(source.db);
  const schema = rows[0].schema;
  const client = new pg.Client({ connectionString: source.databaseUrl });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    await client.query(`set local search_path to "${schema.replaceAll('"', '""')}", public`);
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0].id;
    const file = path.join(stage, 'database.dump');
    const tool = pgToolArgs(source.databaseUrl);
    const only = schema === 'public' ? [] : ['--schema', schema];
    await runProgram(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`, ...only, '-f', file, tool.url],
      tool.env,
    );
    const query: Query = async (text) => (await client.query(text)).rows;
    return { file, query, schema, close: () => client.end() };
  } catch (error) {
    await client.end();
    throw error;
  }
}

/** `20261123-135501-123`: sorts by time, unique per millisecond. */
const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/[T.]/g, '-').slice(0, 19);

/**
 * Makes one consistent online backup into `outDir`: `appdesk-backup-<time>.tar.gz` holding the
 * database (a SQLite copy or a pg_dump archive), every stored file under `files/`, and
 * `manifest.json` (time, schema version, rows per table, each file's size and SHA-256).
 * Files are hard-linked into a staging folder before and after the database snapshot, so a file
 * the snapshot names is kept even if it is deleted while the archive is written.
 */
export async function makeBackup(
  source: BackupSource,
  outDir: string,
): Promise<{ archive: string; manifest: Manifest }> {
  const createdAt = new Date();
  const stage = path.join(source.dataDir, 'tmp', `backup-${randomBytes(6).toString('hex')}`);
  const filesRoot = path.join(source.dataDir, 'files');
  const linked = new Set<string>();
  await mkdir(path.join(stage, 'files'), { recursive: true });
  try {
    await linkFiles(filesRoot, path.join(stage, 'files'), linked);
    const snap =
      source.dialect === 'sqlite' ? await snapshotSqlite(source, stage) : await snapshotPostgres(source, stage);
    let rows: Record<string, number>;
    let migrations: string[];
    let named: string[];
    try {
      rows = await countRows(snap.query, source.dialect);
      migrations = await appliedMigrations(snap.query);
      named = (await snap.query('select key from files')).map((r) => String(r.key));
    } finally {
      await snap.close();
    }
    // Uploads kept between the first pass and the snapshot.
    await linkFiles(filesRoot, path.join(stage, 'files'), linked);
    const files: Manifest['files'] = [];
    for (const key of [...linked].sort()) files.push({ key, ...(await sha256File(path.join(stage, 'files', key))) });
    const manifest: Manifest = {
      format: 1,
      createdAt: createdAt.toISOString(),
      version: { migrations, node: process.version },
      database: {
        dialect: source.dialect,
        file: path.basename(snap.file),
        sha256: (await sha256File(snap.file)).sha256,
        ...(snap.schema ? { schema: snap.schema } : {}),
      },
      rows,
      files,
      missingFiles: source.filesOnS3 ? [] : named.filter((key) => !linked.has(key)).sort(),
    };
    await writeFile(path.join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(outDir, { recursive: true });
    const archive = path.resolve(outDir, `appdesk-backup-${stamp(createdAt)}.tar.gz`);
    const partial = `${archive}.${randomBytes(4).toString('hex')}.partial`;
    await runProgram('tar', ['-czf', partial, '-C', stage, MANIFEST, path.basename(snap.file), 'files']);
    await rename(partial, archive);
    return { archive, manifest };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** Keeps the newest `keep` archives in `dir`, deleting the older ones; answers the names deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => /^appdesk-backup-\d{8}-\d{6}-\d{3}\.tar\.gz$/.test(name))
    .sort()
    .reverse();
  const old = names.slice(keep);
  for (const name of old) await rm(path.join(dir, name), { force: true });
  return old;
}

/** Size of an archive in bytes (for the log line). */
export const archiveSize = async (archive: string) => (await stat(archive)).size;
