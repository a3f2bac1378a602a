import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { WrittenFile } from './types';

/** Streams to a new temporary file in `dir` while counting and hashing; stops at maxBytes (nothing kept then). */
export async function spool(dir: string, stream: Readable, maxBytes: number): Promise<WrittenFile> {
  const tempPath = path.join(dir, randomBytes(16).toString('hex'));
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
