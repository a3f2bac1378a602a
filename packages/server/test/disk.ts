import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { TestServer } from './harness';

/** Bytes of every file under a folder (0 when it does not exist). */
export function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
  }
  return total;
}

/**
 * What a server keeps on disk: on SQLite its whole data folder (database, WAL and files); on
 * PostgreSQL the tables of its schema with their indexes and TOAST, plus the data folder (files).
 */
export async function storedBytes(server: TestServer): Promise<number> {
  const files = folderBytes(server.config.dataDir);
  if (!server.schema) return files;
  const { rows } = await sql<{ bytes: string | number | null }>`
    select sum(pg_total_relation_size(format('%I.%I', schemaname, tablename)::regclass)) as bytes
    from pg_tables where schemaname = ${server.schema}`.execute(server.app.services.db);
  return files + Number(rows[0]?.bytes ?? 0);
}
