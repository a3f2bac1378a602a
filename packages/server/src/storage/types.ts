import type { Readable } from 'node:stream';

/** What a finished write tells the caller; the type check happens on the written bytes. */
export interface WrittenFile {
  /** Path of the temporary file, to sniff or to discard. */
  tempPath: string;
  size: number;
  sha256: string;
  /** True when the stream was longer than the limit (the file was not kept). */
  truncated: boolean;
}

/**
 * Where uploaded files live, by generated keys `<yyyy-mm>/<random>.<ext>` (never the client's
 * name). Two drivers: the local folder (default, storage/local.ts) and S3-compatible object
 * storage (`STORAGE_URL=s3://…`, storage/s3.ts). An upload is spooled to a local temporary file
 * while it is hashed and measured (`write`), checked there, then `keep` puts it in place.
 */
export interface FileStorage {
  /** `local` or `s3`: what the readiness probe and the logs name. */
  readonly driver: 'local' | 's3';
  init(): Promise<void>;
  /** Readiness: throws when the storage does not answer. */
  check(): Promise<void>;
  /** Streams to a temporary local file while counting and hashing; stops at maxBytes. */
  write(stream: Readable, maxBytes: number): Promise<WrittenFile>;
  /**
   * Moves an accepted temporary file into the storage under a new key with the given extension (or
   * under `key`, made by `newKey`, when the caller chose it first: storage/pending.ts).
   */
  keep(tempPath: string, extension: string, key?: string): Promise<string>;
  /** Stores bytes the server made itself (a thumbnail, a few hundred KB at most) under a new key (or `key`). */
  put(bytes: Buffer, extension: string, key?: string): Promise<string>;
  discard(tempPath: string): Promise<void>;
  /** Deletes a stored file; a missing one is no error. */
  remove(key: string): Promise<void>;
  /** The file's URL as the product hands it out (`/files/<key>`). */
  url(key: string): string;
  /** Runs `work` on a local file holding the stored bytes (a download to a temporary file on S3). */
  withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T>;
  /** The stored bytes as a stream, or undefined when there is no such file. */
  read(key: string): Promise<{ body: Readable; size: number | undefined } | undefined>;
  /** Every stored key (the orphan sweep). */
  keys(): AsyncIterable<string>;
}

/** A generated key: `<yyyy-mm>/<random>.<extension>`. */
export function newKey(extension: string, random: string): string {
  return `${new Date().toISOString().slice(0, 7)}/${random}.${extension}`;
}
