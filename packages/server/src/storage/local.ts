import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, constants, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What a finished write tells the caller; the type check happens on the written bytes. */
export interface WrittenFile {
  /** Path of the temporary file, to sniff or to discard. */
  tempPath: string;
  size: number;
  sha256: string;
  /** True when the stream was longer than the limit (the file was not kept). */
  truncated: boolean;
}

/** Files live in one folder under the data directory, named by generated keys (never the client's name). */
export class LocalStorage {
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

  /** Streams to a temporary file while counting and hashing; stops at maxBytes. */
  async write(stream: Readable, maxBytes: number): Promise<WrittenFile> {
    const tempPath = path.join(this.tmp, randomBytes(16).toString('hex'));
    const hash = createHash('sha256');
    let size = 0;
    let truncated = false;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) {
          truncated = true;
          done();
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, meter, createWriteStream(tempPath));
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    if (truncated) await rm(tempPath, { force: true });
    return { tempPath, size, sha256: hash.digest('hex'), truncated };
  }

  /** Moves an accepted temporary file into place under a new key with the given extension. */
  async keep(tempPath: string, extension: string): Promise<string> {
    const key = await this.newKey(extension);
    await rename(tempPath, path.join(this.root, key));
    return key;
  }

  /**
   * Stores bytes the server made itself from an accepted upload (a thumbnail, a few hundred KB at
   * most) under a new key with the given extension; `remove` deletes them like any stored file.
   */
  async put(bytes: Buffer, extension: string): Promise<string> {
    const key = await this.newKey(extension);
    await writeFile(path.join(this.root, key), bytes);
    return key;
  }

  /** A generated key, `<yyyy-mm>/<random>.<extension>`, with its month's folder made. */
  private async newKey(extension: string): Promise<string> {
    const key = `${new Date().toISOString().slice(0, 7)}/${randomBytes(12).toString('base64url')}.${extension}`;
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
}
