import { sql } from 'kysely';
import type { Db } from '../db/index';

/**
 * Where a feature keeps the URL of a stored file (`/files/<key>`): a column holding exactly the
 * URL, or (`contains`) text that may embed it, such as Markdown. Each feature declares its own in
 * `features/<f>/files.ts` (default export, found at start-up like notices), so a replaced file is
 * deleted only when no column of any feature refers to it any more.
 */
export interface FileReference {
  table: string;
  column: string;
  contains?: boolean;
  /** The column holds the bare storage key (`<yyyy-mm>/<random>.<ext>`), not its URL. */
  key?: boolean;
}

const PREFIX = '/files/';

/** The storage key of one of our file URLs, or undefined for anything else (external links, empty). */
export function keyOfUrl(url: string | null | undefined): string | undefined {
  if (!url?.startsWith(PREFIX)) return undefined;
  const key = url.slice(PREFIX.length);
  return /^[\w-]+\/[\w-]+\.[a-z0-9]+$/.test(key) ? key : undefined;
}

/** Whether any declared column still refers to the URL. */
export async function isReferenced(db: Db, references: FileReference[], url: string): Promise<boolean> {
  for (const ref of references) {
    const key = keyOfUrl(url);
    if (ref.key && !key) continue;
    const match = ref.key
      ? sql`${sql.ref(ref.column)} = ${key}`
      : ref.contains
        ? sql`${sql.ref(ref.column)} like ${`%${url}%`}`
        : sql`${sql.ref(ref.column)} = ${url}`;
    const found = await sql`select 1 as hit from ${sql.table(ref.table)} where ${match} limit 1`.execute(db);
    if (found.rows.length > 0) return true;
  }
  return false;
}
