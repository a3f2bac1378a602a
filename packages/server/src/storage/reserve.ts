import { access, rename, rm, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Room kept for deletes on a full disk. A delete needs a little space itself (SQLite appends the
 * changed pages and the operation-log row to its WAL), so on a full disk it would fail like any
 * write. The data folder holds a file of this many zeros; a delete that fails for want of space
 * removes it and runs again (http/route.ts), and the file is written again once the disk has
 * twice its size free (at start and at each readiness check).
 */
export const RESERVE_BYTES = 8 * 1024 * 1024;
const NAME = 'space-reserve';

const writing = new Map<string, Promise<void>>();

/** Writes the reserve if it is missing and the disk has room for it twice over; never fails. */
export function keepReserve(dataDir: string): Promise<void> {
  const pending = writing.get(dataDir);
  if (pending) return pending;
  const file = path.join(dataDir, NAME);
  const temp = `${file}.tmp`;
  const done = (async () => {
    try {
      const disk = await statfs(dataDir);
      const kept = await access(file).then(
        () => true,
        () => false,
      );
      if (kept || disk.bavail * disk.bsize < 2 * RESERVE_BYTES) return;
      await writeFile(temp, Buffer.alloc(RESERVE_BYTES), { flush: true });
      await rename(temp, file);
    } catch {
      await rm(temp, { force: true }).catch(() => {});
    } finally {
      writing.delete(dataDir);
    }
  })();
  writing.set(dataDir, done);
  return done;
}

/** Frees the reserve for a delete; whether there was one to free. */
export async function releaseReserve(dataDir: string): Promise<boolean> {
  await writing.get(dataDir);
  const file = path.join(dataDir, NAME);
  try {
    await rm(file);
    return true;
  } catch {
    return false;
  }
}
