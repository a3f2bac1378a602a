import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type yauzl from 'yauzl';
import { scanZip, withFile } from '../../http/packages';

/** What an APK says about itself, read from its binary AndroidManifest.xml. */
export interface ApkInfo {
  packageName: string;
  versionName: string;
  versionCode: number | null;
  /** The launcher icon as a data URL (the densest PNG named ic_launcher), if the APK has one. */
  icon: string | null;
}

/**
 * Bounds on reading an APK (docs/app-api.md#reading-a-package): the manifest is at most 4 MB and the icon 512 KB,
 * as declared and as actually inflated; the zip's directory is walked within scanZip's bounds; the
 * manifest is parsed in a worker that gets PARSE_MS and PARSE_HEAP_MB before it is ended.
 */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MAX_ICON_BYTES = 512 * 1024;
export const PARSE_MS = 5_000;
const PARSE_HEAP_MB = 64;
/** Deflate never grows data by more than a few bytes per 16 KB block: a larger stored entry lies. */
const compressedCap = (bytes: number) => bytes + 1024 + Math.ceil(bytes / 1000);
const densities = ['xxxhdpi', 'xxhdpi', 'xhdpi', 'hdpi', 'mdpi', ''];

/** An entry's stored bytes, read from the local header the directory points at; null when they are not all there. */
async function storedBytes(handle: FileHandle, entry: yauzl.Entry, cap: number) {
  if (entry.uncompressedSize > cap || entry.compressedSize > compressedCap(cap)) return null;
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) return null;
  if (entry.compressionMethod === 0 && entry.compressedSize !== entry.uncompressedSize) return null;
  const header = Buffer.alloc(30);
  const got = await handle.read(header, 0, 30, entry.relativeOffsetOfLocalHeader);
  if (got.bytesRead < 30 || header.readUInt32LE(0) !== 0x04034b50) return null;
  const start = entry.relativeOffsetOfLocalHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const bytes = Buffer.alloc(entry.compressedSize);
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
  if (bytesRead < bytes.length) return null;
  return { method: entry.compressionMethod, bytes, size: entry.uncompressedSize };
}

type Stored = NonNullable<Awaited<ReturnType<typeof storedBytes>>>;
type Parsed = { ok: true; packageName: unknown; versionName: unknown; versionCode: unknown; icon: string | null };

/** Inflates and parses in a worker (apk-worker.mjs) bounded by PARSE_MS and PARSE_HEAP_MB; null past either. */
function parseInWorker(manifest: Stored, icon: Stored | null): Promise<Parsed | null> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./apk-worker.mjs', import.meta.url), {
      workerData: { manifest, icon },
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    });
    let answer: Parsed | null = null;
    // Answered once the worker is gone (done, failed, out of heap or ended at the time limit).
    const timer = setTimeout(() => void worker.terminate(), PARSE_MS);
    worker.on('message', (message: Parsed | { ok: false }) => {
      if (message.ok) answer = message;
    });
    worker.on('error', () => {});
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}

async function readOpenApk(handle: FileHandle): Promise<ApkInfo | null> {
  let manifestEntry: yauzl.Entry | undefined;
  const icons: yauzl.Entry[] = [];
  await scanZip(handle, (entry) => {
    if (entry.fileName === 'AndroidManifest.xml') manifestEntry = entry;
    else if (/^res\/(.*\/)?ic_launcher[^/]*\.png$/.test(entry.fileName) && entry.uncompressedSize <= MAX_ICON_BYTES) {
      icons.push(entry);
    }
    return false;
  });
  if (!manifestEntry) return null;
  const manifest = await storedBytes(handle, manifestEntry, MAX_MANIFEST_BYTES);
  if (!manifest) return null;
  const rank = (name: string) => densities.findIndex((d) => (d ? name.includes(`-${d}`) : true));
  icons.sort((a, b) => rank(a.fileName) - rank(b.fileName));
  const icon = icons[0] ? await storedBytes(handle, icons[0], MAX_ICON_BYTES) : null;
  const parsed = await parseInWorker(manifest, icon);
  if (!parsed || typeof parsed.packageName !== 'string' || !parsed.packageName) return null;
  return {
    packageName: parsed.packageName,
    versionName: typeof parsed.versionName === 'string' ? parsed.versionName : '',
    versionCode: typeof parsed.versionCode === 'number' ? parsed.versionCode : null,
    icon: parsed.icon ? `data:image/png;base64,${parsed.icon}` : null,
  };
}

/**
 * Reads package name, version and icon (adbkit-apkreader's manifest parser); null when it cannot,
 * or when the APK is past the bounds above. The file is closed on every path.
 */
export async function readApk(file: string): Promise<ApkInfo | null> {
  try {
    return await withFile(file, readOpenApk);
  } catch {
    return null;
  }
}

/** MD5 of a stored file, streamed (apps and stores still ask for it beside SHA-256). */
export async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}
