import { sql } from 'kysely';
import type { Db } from '../db/index';
import { type FileReference, keyOfUrl } from '../storage/references';
import type { FileStorage } from '../storage/types';

export interface SweepResult {
  /** Stored objects no `files` row and no declared column refers to. */
  orphans: string[];
  /** `files` rows whose object is missing. */
  danglingRows: { id: number; key: string }[];
  /** Declared columns' keys whose object is missing (reported, never changed). */
  missingReferenced: string[];
  /** Dangling rows a removal had to keep: another table still points at them. */
  keptRows: { id: number; key: string }[];
  removed: boolean;
}

const URL_IN_TEXT = /\/files\/([\w-]+\/[\w-]+\.[a-z0-9]+)/g;

/** Every key the database refers to: `files` rows plus each feature's declared columns (`files.ts`). */
async function referencedKeys(db: Db, references: FileReference[]): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const ref of references) {
    const result = await sql<{
      value: string | null;
    }>`select ${sql.ref(ref.column)} as value from ${sql.table(ref.table)} where ${sql.ref(ref.column)} is not null`.execute(
      db,
    );
    for (const { value } of result.rows) {
      if (!value) continue;
      if (ref.key) keys.add(value);
      else if (ref.contains) for (const match of value.matchAll(URL_IN_TEXT)) keys.add(match[1] as string);
      else {
        const key = keyOfUrl(value);
        if (key) keys.add(key);
      }
    }
  }
  return keys;
}

/**
 * Finds stored objects nothing refers to and `files` rows whose object is gone (`npm run
 * storage-sweep`, `-- --remove` deletes both). Removal is for a quiet moment: an upload in flight
 * has its object before its row for a few milliseconds.
 */
export async function sweepStorage(
  deps: { db: Db; storage: FileStorage; references: FileReference[] },
  options: { remove?: boolean } = {},
): Promise<SweepResult> {
  const { db, storage } = deps;
  const stored = new Set<string>();
  for await (const key of storage.keys()) stored.add(key);
  const rows = await db.selectFrom('files').select(['id', 'key']).execute();
  const declared = await referencedKeys(db, deps.references);
  const referenced = new Set([...rows.map((r) => r.key), ...declared]);
  const orphans = [...stored].filter((key) => !referenced.has(key)).sort();
  const danglingRows = rows.filter((r) => !stored.has(r.key));
  const keptRows: { id: number; key: string }[] = [];
  const missingReferenced = [...declared].filter((key) => !stored.has(key)).sort();
  if (options.remove) {
    for (const key of orphans) await storage.remove(key);
    for (const row of danglingRows) {
      // A row another table still points at (foreign key) stays, and is reported.
      const gone = await db
        .deleteFrom('files')
        .where('id', '=', row.id)
        .execute()
        .then(
          () => true,
          () => false,
        );
      if (!gone) keptRows.push(row);
    }
  }
  return { orphans, danglingRows, missingReferenced, keptRows, removed: Boolean(options.remove) };
}
