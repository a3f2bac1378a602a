import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { spool } from './spool';
import { type FileStorage, newKey, type WrittenFile } from './types';

export type { WrittenFile } from './types';

/** Files live in one folder under the data directory, named by generated keys (never the client's name). */
export class LocalStorage implements FileStorage {
  readonly driver = 'local' as const;
  readonly root: string;
  private readonly tmp: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'files');
    this.tmp = path.join(dataDir, 'tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await mkdir(this.tmp, { recursive: true });
  }

  write(stream: Readable, maxBytes: number): Promise<WrittenFile> {
    return spool(this.tmp, stream, maxBytes);
  }

  /** Moves an accepted temporary file into place under a new key with the given extension. */
  async keep(tempPath: string, extension: string, chosen?: string): Promise<string> {
    const key = await this.newKey(extension, chosen);
    await rename(tempPath, path.join(this.root, key));
    return key;
  }

  /**
   * Stores bytes the server made itself from an accepted upload (a thumbnail, a few hundred KB at
   * most) under a new key with the given extension; `remove` deletes them like any stored file.
   */
  async put(bytes: Buffer, extension: string, chosen?: string): Promise<string> {
    const key = await this.newKey(extension, chosen);
    await writeFile(path.join(this.root, key), bytes);
    return key;
  }

  /** A generated key, `<yyyy-mm>/<random>.<extension>`, with its month's folder made. */
  private async newKey(extension: string, chosen?: string): Promise<string> {
    const key = chosen ?? newKey(extension, randomBytes(12).toString('base64url'));
    await mkdir(path.join(this.root, path.dirname(key)), { recursive: true });
    return key;
  }

  /** Readiness: the files folder is there and writable. */
  async check(): Promise<void> {
    await access(this.root, constants.W_OK);
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async remove(key: string): Promise<void> {
    await rm(path.join(this.root, key), { force: true });
  }

  url(key: string): string {
    return `/files/${key}`;
  }

  withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T> {
    return work(path.join(this.root, key));
  }

  async read(key: string): Promise<{ body: Readable; size: number | undefined } | undefined> {
    const file = path.join(this.root, key);
    const found = await stat(file).catch(() => undefined);
    return found?.isFile() ? { body: createReadStream(file), size: found.size } : undefined;
  }

  async *keys(): AsyncIterable<string> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.isFile()) yield path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    }
  }
}
