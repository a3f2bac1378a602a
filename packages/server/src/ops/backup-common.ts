import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Dialect } from '../db/index';

/** What a backup archive holds besides the database and the files (`manifest.json`). */
export interface Manifest {
  format: 1;
  createdAt: string;
  /** The schema version: the migrations applied, newest last; and the Node.js that made it. */
  version: { migrations: string[]; node: string };
  database: {
    dialect: Dialect;
    /** `database.sqlite` (a copy made by VACUUM INTO) or `database.dump` (pg_dump's custom format). */
    file: string;
    sha256: string;
    /** PostgreSQL: the schema the tables live in (public unless the server was given another). */
    schema?: string;
  };
  /** Rows per table at the moment of the snapshot. */
  rows: Record<string, number>;
  files: { key: string; size: number; sha256: string }[];
  /** Keys the database's `files` table names that were not on disk when the backup was made. */
  missingFiles: string[];
}

export const MANIFEST = 'manifest.json';

export async function sha256File(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Every file under `root`, as keys relative to it with forward slashes. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** A read on one connection or snapshot: the rows of a query. */
export type Query = (text: string) => Promise<Record<string, unknown>[]>;

const tablesSql: Record<Dialect, string> = {
  sqlite: `select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%' order by name`,
  postgres: `select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
};

/** Rows per ordinary table (of the current schema on PostgreSQL). */
export async function countRows(query: Query, dialect: Dialect): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { name } of (await query(tablesSql[dialect])) as { name: string }[]) {
    const [row] = await query(`select count(*) as n from "${name.replaceAll('"', '""')}"`);
    counts[name] = Number(row?.n ?? 0);
  }
  return counts;
}

/** The migrations applied (the schema's version), oldest first. */
export async function appliedMigrations(query: Query): Promise<string[]> {
  const rows = await query('select name from kysely_migration order by name').catch(() => {
    throw new Error('数据库尚未初始化（服务从未在这里启动过），没有可备份的内容');
  });
  return rows.map((r) => String(r.name));
}

/** Runs a program to its end; rejects with its last error output when it fails. */
export function runProgram(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + String(chunk)).slice(-2000);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} 失败（退出码 ${code}）：${stderr.trim()}`)),
    );
  });
}

/** A PostgreSQL URL for the command-line tools, without the password (handed over in PGPASSWORD). */
export function pgToolArgs(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}
