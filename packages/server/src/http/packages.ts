import { type PackageType, packageTypes } from '@appdesk/contract/constants';
import yauzl from 'yauzl';

/** What file-type calls a zip container (it names an APK a jar when META-INF/MANIFEST.MF comes first). */
const zipMimes = new Set(['application/zip', 'application/java-archive', 'application/vnd.android.package-archive']);

export const isZipFamily = (mime: string) => zipMimes.has(mime);

/** Central directories longer than this are not app packages we accept (a zip bomb of names). */
const MAX_ENTRIES = 500_000;

/** The zip's entry names, read from its central directory only (no entry is decompressed). */
export function zipEntryNames(file: string, stopAt?: (name: string) => boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        if (names.length > MAX_ENTRIES || stopAt?.(entry.fileName)) {
          zip.close();
          return resolve(names);
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
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
 * a bundle, Payload/<name>.app/ of an iOS archive); undefined for any other or a broken zip.
 */
export async function identifyPackage(file: string): Promise<(typeof packageTypes)[number] | undefined> {
  let found: PackageType | undefined;
  try {
    await zipEntryNames(file, (name) => {
      found = packageOfEntry(name);
      return found !== undefined;
    });
  } catch {
    return undefined;
  }
  return packageTypes.find((p) => p.value === found);
}
