// Inflates and parses an APK's manifest (and icon) in a worker thread (see apk.ts), so a hostile
// manifest that loops the parser or makes it build gigabytes of strings costs this worker, which
// the main thread ends at its time limit or V8 ends at its heap limit, never the server. Plain
// JavaScript so the same file runs under the tests and from the built bundle (copied beside it).
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const ManifestParser = require('@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest');

/**
 * An entry's bytes as the zip stores them, inflated to at most the size the zip declares: a
 * deflate stream that produces more (or fewer) bytes than declared is refused, so what is inflated
 * is bounded by the bytes actually produced, not by what the zip claims.
 */
function contentOf({ method, bytes, size }) {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const content = method === 8 ? inflateRawSync(raw, { maxOutputLength: Math.max(1, size) }) : raw;
  if (content.length !== size) throw new Error(`entry holds ${content.length} bytes, the zip says ${size}`);
  return content;
}

try {
  const manifest = new ManifestParser(contentOf(workerData.manifest)).parse();
  const icon = workerData.icon ? contentOf(workerData.icon).toString('base64') : null;
  parentPort.postMessage({
    ok: true,
    packageName: manifest.package,
    versionName: manifest.versionName,
    versionCode: manifest.versionCode,
    icon,
  });
} catch (error) {
  parentPort.postMessage({ ok: false, reason: String(error?.message ?? error) });
}
