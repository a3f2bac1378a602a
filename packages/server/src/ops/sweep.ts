import { sql } from 'kysely';
import type { Db } from '../db/index';
import { PENDING_GRACE_MS, settlePending } from '../storage/pending';
import { type FileReference, keyOfUrl } from '../storage/references';
import type { FileStorage } from '../storage/types';

export interface SweepResult {
  /** Stored objects no `files` row, no declared column and no pending upload refers to. */
  orphans: string[];
  /** `files` rows whose object is missing. */
  danglingRows: { id: number; key: string }[];
  /** Declared columns' keys whose object is missing (reported, never changed). */
  missingReferenced: string[];
  /** Dangling rows a removal had to keep: another table still points at them. */
  keptRows: { id: number; key: string }[];
  /** Uploads that reserved a key within the grace period: in flight, left alone. */
  inFlight: string[];
  /** Uploads that reserved a key longer ago than the grace period: their process died (kill -9, crash). */
  interrupted: { key: string; stored: boolean }[];
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
 * storage-sweep`, `-- --remove` deletes both, and what interrupted uploads left). Exact while
 * uploads run: the upload path commits an object's key to `pending_uploads` before writing it and
 * deletes it in the transaction that inserts the `files` row (storage/pending.ts). So the objects are
 * listed first, then the pending keys, then the rows: an object of an upload in flight is found
 * pending or (once committed) referenced, never an orphan; a row without its object is checked again
 * after the rows were read, since its upload may have finished in between.
 */
export async function sweepStorage(
  deps: { db: Db; storage: FileStorage; references: FileReference[] },
  options: { remove?: boolean; pendingGraceMs?: number; now?: number } = {},
): Promise<SweepResult> {
  const { db, storage } = deps;
  const stored = new Set<string>();
  for await (const key of storage.keys()) stored.add(key);
  const pendingRows = await db.selectFrom('pending_uploads').select(['key', 'started_at']).execute();
  const rows = await db.selectFrom('files').select(['id', 'key']).execute();
  const declared = await referencedKeys(db, deps.references);
  const referenced = new Set([...rows.map((r) => r.key), ...declared]);
  const pending = new Set(pendingRows.map((p) => p.key));
  const orphans = [...stored].filter((key) => !referenced.has(key) && !pending.has(key)).sort();
  const cutoff = (options.now ?? Date.now()) - (options.pendingGraceMs ?? PENDING_GRACE_MS);
  const inFlight = pendingRows.filter((p) => p.started_at > cutoff).map((p) => p.key);
  const interrupted = pendingRows
    .filter((p) => p.started_at <= cutoff)
    .map((p) => ({ key: p.key, stored: stored.has(p.key) }));
  const danglingRows: { id: number; key: string }[] = [];
  for (const row of rows.filter((r) => !stored.has(r.key))) {
    if (!(await exists(storage, row.key))) danglingRows.push(row);
  }
  const missingReferenced: string[] = [];
  for (const key of [...declared].filter((k) => !stored.has(k)).sort()) {
    if (!(await exists(storage, key))) missingReferenced.push(key);
  }
  const keptRows: { id: number; key: string }[] = [];
  if (options.remove) {
    for (const key of orphans) await storage.remove(key);
    for (const { key } of interrupted) {
      if (!referenced.has(key)) await storage.remove(key);
      await settlePending(db, [key]);
    }
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
  return {
    orphans,
    danglingRows,
    missingReferenced,
    keptRows,
    inFlight,
    interrupted,
    removed: Boolean(options.remove),
  };
}

async function exists(storage: FileStorage, key: string): Promise<boolean> {
  const found = await storage.read(key);
  found?.body.destroy();
  return Boolean(found);
}
