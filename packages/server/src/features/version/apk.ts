import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import ApkReader from '@devicefarmer/adbkit-apkreader';
import yauzl from 'yauzl';

/** What an APK says about itself, read from its binary AndroidManifest.xml. */
export interface ApkInfo {
  packageName: string;
  versionName: string;
  versionCode: number | null;
  /** The launcher icon as a data URL (the densest PNG named ic_launcher), if the APK has one. */
  icon: string | null;
}

/** A manifest larger than this is not read (it would be held in memory to parse). */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MAX_ICON_BYTES = 512 * 1024;
const densities = ['xxxhdpi', 'xxhdpi', 'xhdpi', 'hdpi', 'mdpi', ''];

/** Entry names and their uncompressed sizes, from the zip's central directory. */
function entries(file: string): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const found = new Map<string, number>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName === 'AndroidManifest.xml' || /(^|\/)ic_launcher[^/]*\.png$/.test(entry.fileName)) {
          found.set(entry.fileName, entry.uncompressedSize);
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Reads package name, version and icon with a maintained parser (adbkit-apkreader); null when it cannot. */
export async function readApk(file: string): Promise<ApkInfo | null> {
  try {
    const names = await entries(file);
    const manifestSize = names.get('AndroidManifest.xml');
    if (manifestSize === undefined || manifestSize > MAX_MANIFEST_BYTES) return null;
    const reader = await ApkReader.open(file);
    const manifest = (await reader.readManifest()) as {
      package?: unknown;
      versionName?: unknown;
      versionCode?: unknown;
    };
    if (typeof manifest.package !== 'string' || !manifest.package) return null;
    const icons = [...names.entries()].filter(([name, bytes]) => name.startsWith('res/') && bytes <= MAX_ICON_BYTES);
    const rank = (name: string) => densities.findIndex((d) => (d ? name.includes(`-${d}`) : true));
    icons.sort(([a], [b]) => rank(a) - rank(b));
    let icon: string | null = null;
    if (icons[0]) {
      const bytes = (await reader.readContent(icons[0][0])) as Buffer;
      icon = `data:image/png;base64,${bytes.toString('base64')}`;
    }
    return {
      packageName: manifest.package,
      versionName: typeof manifest.versionName === 'string' ? manifest.versionName : '',
      versionCode: typeof manifest.versionCode === 'number' ? manifest.versionCode : null,
      icon,
    };
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
