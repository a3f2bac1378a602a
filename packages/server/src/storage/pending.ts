import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../db/index';
import { type FileStorage, newKey, type WrittenFile } from './types';

/**
 * How long an upload may hold a pending key before storage-sweep takes it for one that died (a
 * kill -9, a crash): an upload's key is pending from just before its object is written until its
 * transaction commits, so seconds to minutes even for a 2 GB package.
 */
export const PENDING_GRACE_MS = 60 * 60 * 1000;

/**
 * The upload path's view of the storage: every object it writes (the upload, a thumbnail) has its
 * key committed to `pending_uploads` first, outside the call's transaction. The call's transaction
 * deletes those keys as it inserts the `files` row (`settlePending`), so after any crash each stored
 * object is referenced, pending, or an orphan no upload can still claim (ops/sweep.ts).
 */
export class PendingWrites implements FileStorage {
  constructor(
    private readonly inner: FileStorage,
    private readonly db: Db,
  ) {}

  get driver() {
    return this.inner.driver;
  }

  private async reserve(extension: string): Promise<string> {
    const key = newKey(extension, randomBytes(12).toString('base64url'));
    await this.db.insertInto('pending_uploads').values({ key, started_at: Date.now() }).execute();
    return key;
  }

  async keep(tempPath: string, extension: string): Promise<string> {
    const key = await this.reserve(extension);
    return this.inner.keep(tempPath, extension, key);
  }

  async put(bytes: Buffer, extension: string): Promise<string> {
    const key = await this.reserve(extension);
    return this.inner.put(bytes, extension, key);
  }

  init = () => this.inner.init();
  check = () => this.inner.check();
  write = (stream: Readable, maxBytes: number): Promise<WrittenFile> => this.inner.write(stream, maxBytes);
  discard = (tempPath: string) => this.inner.discard(tempPath);
  remove = (key: string) => this.inner.remove(key);
  url = (key: string) => this.inner.url(key);
  withLocalFile = <T>(key: string, work: (file: string) => Promise<T>) => this.inner.withLocalFile(key, work);
  read = (key: string) => this.inner.read(key);
  keys = () => this.inner.keys();
}

/** Ends the pending state of these keys: in the transaction that records them, or after removing them. */
export async function settlePending(db: Db, keys: string[]): Promise<void> {
  if (keys.length) await db.deleteFrom('pending_uploads').where('key', 'in', keys).execute();
}
