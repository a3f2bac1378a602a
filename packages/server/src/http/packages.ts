import { type FileHandle, open } from 'node:fs/promises';
import { type PackageType, packageTypes } from '@appdesk/contract/constants';
import yauzl from 'yauzl';

/** What file-type calls a zip container (it names an APK a jar when META-INF/MANIFEST.MF comes first). */
const zipMimes = new Set(['application/zip', 'application/java-archive', 'application/vnd.android.package-archive']);

export const isZipFamily = (mime: string) => zipMimes.has(mime);

/**
 * Bounds on reading a zip's central directory: a directory longer than this many entries is not an
 * app package we accept (a zip bomb of names; real APKs have tens of thousands at most), and no scan
 * takes longer than this, whatever the directory says.
 */
export const ZIP_MAX_ENTRIES = 200_000;
export const ZIP_SCAN_MS = 10_000;

/** The directory is read in blocks this large: one read per block, not two per entry. */
const BLOCK = 64 * 1024;

/**
 * A yauzl reader over a file handle the caller owns (yauzl never closes it), that serves the
 * central directory's many small reads from one block read at a time.
 */
class BlockReader extends yauzl.RandomAccessReader {
  private block = Buffer.alloc(0);
  private blockStart = -1;

  constructor(private readonly handle: FileHandle) {
    super();
  }

  override _readStreamForRange(start: number, end: number) {
    return this.handle.createReadStream({ start, end: end - 1, autoClose: false });
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null) => void,
  ) {
    const at = position - this.blockStart;
    if (this.blockStart >= 0 && at >= 0 && at + length <= this.block.length) {
      // Served from the block: answered as a microtask (the block's next read yields to the event loop).
      this.block.copy(buffer, offset, at, at + length);
      queueMicrotask(() => callback(null));
      return;
    }
    this.load(buffer, offset, length, position).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }

  private async load(buffer: Buffer, offset: number, length: number, position: number) {
    if (length > BLOCK) {
      const { bytesRead } = await this.handle.read(buffer, offset, length, position);
      if (bytesRead < length) throw new Error('unexpected end of zip');
      return;
    }
    const block = Buffer.alloc(BLOCK);
    const { bytesRead } = await this.handle.read(block, 0, BLOCK, position);
    this.block = block.subarray(0, bytesRead);
    this.blockStart = position;
    if (bytesRead < length) throw new Error('unexpected end of zip');
    this.block.copy(buffer, offset, 0, length);
  }
}

/**
 * Walks the central directory of the zip open in `handle` (no entry is decompressed), calling
 * `visit` per entry until it returns true. Refuses (throws) a directory of more than ZIP_MAX_ENTRIES
 * entries or one not read within ZIP_SCAN_MS. The caller closes the handle; nothing is left reading it.
 */
export async function scanZip(handle: FileHandle, visit: (entry: yauzl.Entry) => boolean | undefined): Promise<void> {
  const { size } = await handle.stat();
  const deadline = performance.now() + ZIP_SCAN_MS;
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      new BlockReader(handle),
      size,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true },
      (error, zipfile) => (error || !zipfile ? reject(error ?? new Error('not a zip')) : resolve(zipfile)),
    ),
  );
  try {
    if (zip.entryCount > ZIP_MAX_ENTRIES) throw new Error(`zip has ${zip.entryCount} entries`);
    await new Promise<void>((resolve, reject) => {
      let seen = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        seen += 1;
        // Checked between entries, so no read is pending when the scan stops.
        if (visit(entry)) return resolve();
        if (seen >= ZIP_MAX_ENTRIES) return reject(new Error('zip has too many entries'));
        if (performance.now() > deadline) return reject(new Error('zip directory takes too long to read'));
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** Opens `file`, runs `use` on it and closes it on every path. */
export async function withFile<T>(file: string, use: (handle: FileHandle) => Promise<T>): Promise<T> {
  const handle = await open(file, 'r');
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/** Which package a zip entry shows the file to be, if any. */
function packageOfEntry(name: string): PackageType | undefined {
  if (name === 'AndroidManifest.xml') return 'apk';
  if (name === 'base/manifest/AndroidManifest.xml') return 'aab';
  if (/^Payload\/[^/]+\.app\//.test(name)) return 'ipa';
  return undefined;
}

/**
 * Tells APK, AAB and IPA apart by their entries (AndroidManifest.xml at the root, base/manifest/ of
 * a bundle, Payload/<name>.app/ of an iOS archive); undefined for any other, a broken zip, or one
 * past the bounds of scanZip.
 */
export async function identifyPackage(file: string): Promise<(typeof packageTypes)[number] | undefined> {
  let found: PackageType | undefined;
  try {
    await withFile(file, (handle) =>
      scanZip(handle, (entry) => {
        found = packageOfEntry(entry.fileName);
        return found !== undefined;
      }),
    );
  } catch {
    return undefined;
  }
  return packageTypes.find((p) => p.value === found);
}
