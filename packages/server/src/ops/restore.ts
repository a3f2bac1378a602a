import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  countRows,
  listFiles,
  MANIFEST,
  type Manifest,
  pgToolArgs,
  type Query,
  runProgram,
  sha256File,
} from './backup-common';

export interface RestoreTarget {
  /** The data folder to restore into: it must hold no database and no stored files yet. */
  dataDir: string;
  /** PostgreSQL backups: an empty database (no tables in the backup's schema). */
  databaseUrl?: string;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Tables whose row count differs from the manifest's (none after a good restore). */
  mismatchedRows: string[];
}

class RestoreRefused extends Error {}

/** Checks every checksum of the unpacked archive against its manifest before anything is put in place. */
async function verify(unpacked: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(path.join(unpacked, MANIFEST), 'utf8')) as Manifest;
  if (manifest.format !== 1) throw new RestoreRefused(`不认识的备份格式：${manifest.format}`);
  const database = await sha256File(path.join(unpacked, manifest.database.file));
  if (database.sha256 !== manifest.database.sha256)
    throw new RestoreRefused('备份中的数据库文件校验和不符，备份已损坏');
  for (const file of manifest.files) {
    const found = await sha256File(path.join(unpacked, 'files', file.key)).catch(() => undefined);
    if (found?.sha256 !== file.sha256 || found.size !== file.size) {
      throw new RestoreRefused(`备份中的文件 ${file.key} 缺失或校验和不符，备份已损坏`);
    }
  }
  return manifest;
}

async function restoreSqlite(unpacked: string, manifest: Manifest, dataDir: string) {
  const target = path.join(dataDir, 'appdesk.sqlite');
  await mkdir(dataDir, { recursive: true });
  await rename(path.join(unpacked, manifest.database.file), target);
  const db = new SQLite(target, { readonly: true });
  return {
    query: (async (text) => db.prepare(text).all() as Record<string, unknown>[]) as Query,
    close: async () => db.close(),
  };
}

async function restorePostgres(unpacked: string, manifest: Manifest, databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const schema = manifest.database.schema ?? 'public';
  const quoted = `"${schema.replaceAll('"', '""')}"`;
  const existing = await client.query(
    `select count(*)::int as n from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'`,
    [schema],
  );
  if (existing.rows[0].n > 0) {
    await client.end();
    throw new RestoreRefused(`目标数据库的 ${schema} 模式中已有数据表：请恢复到一个空数据库`);
  }
  // The search indexes need pg_trgm, which a dump of one schema does not carry.
  await client.query('create extension if not exists pg_trgm with schema public');
  const tool = pgToolArgs(databaseUrl);
  await runProgram(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '-d', tool.url, path.join(unpacked, manifest.database.file)],
    tool.env,
  );
  await client.query(`set search_path to ${quoted}, public`);
  return { query: (async (text) => (await client.query(text)).rows) as Query, close: () => client.end() };
}

/**
 * Restores an archive made by `makeBackup` into an empty data folder (and, for a PostgreSQL
 * backup, an empty database): checks every checksum first, puts the database and the files in
 * place, then counts the rows again and reports any table that differs from the manifest.
 */
export async function restoreBackup(archive: string, target: RestoreTarget): Promise<RestoreResult> {
  const filesRoot = path.join(target.dataDir, 'files');
  if (!existsSync(archive)) throw new RestoreRefused(`找不到备份归档 ${archive}`);
  if (existsSync(path.join(target.dataDir, 'appdesk.sqlite')) || (await listFiles(filesRoot)).length > 0) {
    throw new RestoreRefused(`数据目录 ${target.dataDir} 不是空的（已有数据库或文件）：请恢复到一个空目录`);
  }
  const unpacked = path.join(target.dataDir, 'tmp', `restore-${randomBytes(6).toString('hex')}`);
  await mkdir(unpacked, { recursive: true });
  try {
    await runProgram('tar', ['-xzf', path.resolve(archive), '-C', unpacked]);
    const manifest = await verify(unpacked);
    if (manifest.database.dialect === 'sqlite' && target.databaseUrl) {
      throw new RestoreRefused('这是 SQLite 备份：请不要设置 DATABASE_URL');
    }
    if (manifest.database.dialect === 'postgres' && !target.databaseUrl) {
      throw new RestoreRefused('这是 PostgreSQL 备份：请用 DATABASE_URL 指定一个空数据库');
    }
    const { query, close } =
      manifest.database.dialect === 'sqlite'
        ? await restoreSqlite(unpacked, manifest, target.dataDir)
        : await restorePostgres(unpacked, manifest, target.databaseUrl as string);
    try {
      await mkdir(filesRoot, { recursive: true });
      for (const file of manifest.files) {
        await mkdir(path.dirname(path.join(filesRoot, file.key)), { recursive: true });
        await rename(path.join(unpacked, 'files', file.key), path.join(filesRoot, file.key));
      }
      const rows = await countRows(query, manifest.database.dialect);
      const tables = new Set([...Object.keys(rows), ...Object.keys(manifest.rows)]);
      const mismatchedRows = [...tables].filter((t) => rows[t] !== manifest.rows[t]).sort();
      return { manifest, mismatchedRows };
    } finally {
      await close();
    }
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}
