import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/free-port';
import { startServer, testDb, tinyPng } from '../../test/harness';
import { LocalStorage } from './local';
import { loadS3Sdk, parseS3Url, S3Storage } from './s3';
import type { FileStorage } from './types';

/*
 * The storage contract, run against both drivers: the local folder, and S3 against a real
 * S3-compatible server (Debian's radosgw, started on loopback by scripts/s3-test-server.sh; .ci/run
 * installs it). Storage does not depend on the database, so this runs once, in the SQLite project.
 */
const script = path.resolve(import.meta.dirname, '../../../../scripts/s3-test-server.sh');
const hasRadosgw = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v radosgw'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasRadosgw && testDb === 'sqlite') {
  console.log(
    'S3 storage contract skipped: radosgw is not installed (scripts/s3-test-server.sh install; .ci/run does)',
  );
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const read = async (storage: FileStorage, key: string) => {
  const found = await storage.read(key);
  if (!found) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of found.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

function contract(name: string, make: (dataDir: string) => Promise<FileStorage>) {
  describe(`storage contract: ${name}`, () => {
    let dir: string;
    let storage: FileStorage;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'appdesk-storage-'));
      storage = await make(dir);
      await storage.init();
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps a written file under a generated key, reads, lists and deletes it', async () => {
      await storage.check();
      const bytes = randomBytes(5000);
      const written = await storage.write(Readable.from([bytes]), 10_000);
      expect(written).toMatchObject({ size: 5000, sha256: sha(bytes), truncated: false });
      const key = await storage.keep(written.tempPath, 'png');
      expect(key).toMatch(/^\d{4}-\d{2}\/[\w-]+\.png$/);
      expect(storage.url(key)).toBe(`/files/${key}`);
      expect((await read(storage, key))?.equals(bytes)).toBe(true);
      expect(await storage.withLocalFile(key, async (file) => sha(await readFile(file)))).toBe(sha(bytes));
      const keys: string[] = [];
      for await (const k of storage.keys()) keys.push(k);
      expect(keys).toContain(key);
      await storage.remove(key);
      expect(await storage.read(key)).toBeUndefined();
      await storage.remove(key); // a missing file is no error
    });

    it('stops a write past the limit and keeps nothing', async () => {
      const written = await storage.write(Readable.from([randomBytes(3000)]), 1000);
      expect(written.truncated).toBe(true);
      await expect(readFile(written.tempPath)).rejects.toThrow();
    });

    it('puts derived bytes', async () => {
      const key = await storage.put(Buffer.from('thumb'), 'webp');
      expect((await read(storage, key))?.toString()).toBe('thumb');
      await storage.remove(key);
    });

    it('streams a 20 MB file in parts and reads back the same bytes', async () => {
      const part = randomBytes(1024 * 1024);
      const hash = createHash('sha256');
      async function* chunks() {
        for (let i = 0; i < 20; i++) {
          hash.update(part);
          yield part;
        }
      }
      const written = await storage.write(Readable.from(chunks()), 32 * 1024 * 1024);
      const key = await storage.keep(written.tempPath, 'apk');
      const back = await read(storage, key);
      expect(back?.length).toBe(20 * 1024 * 1024);
      expect(sha(back as Buffer)).toBe(hash.digest('hex'));
      await storage.remove(key);
    });
  });
}

contract('local folder', async (dir) => new LocalStorage(dir));

describe.runIf(hasRadosgw && testDb === 'sqlite')('S3 driver on radosgw', () => {
  let scratch = '';
  const bucket = `appdesk-test-${randomBytes(4).toString('hex')}`;
  let storageUrl = '';
  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'appdesk-rgw-'));
    process.env.AWS_ACCESS_KEY_ID = 'appdesk-test-key';
    process.env.AWS_SECRET_ACCESS_KEY = 'appdesk-test-secret-0123456789';
    const [port, mon, mon2] = [await freePort(), await freePort(), await freePort()];
    storageUrl = `s3://${bucket}/uploads?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}`;
    execFileSync(script, ['start', scratch, String(port)], {
      env: { ...process.env, S3_TEST_MON_PORT: String(mon), S3_TEST_MON2_PORT: String(mon2) },
      stdio: 'ignore',
    });
  }, 120_000);
  afterAll(() => {
    execFileSync(script, ['stop', scratch], { stdio: 'ignore' });
    rmSync(scratch, { recursive: true, force: true });
  });

  contract('S3 (radosgw)', async (dir) => {
    return new S3Storage(parseS3Url(storageUrl), dir, await loadS3Sdk());
  });

  it('refuses a wrong secret (the requests are really signed)', async () => {
    const saved = process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_SECRET_ACCESS_KEY = 'not-the-secret';
    try {
      const wrong = new S3Storage(parseS3Url(storageUrl), scratch, await loadS3Sdk());
      await expect(wrong.check()).rejects.toThrow();
    } finally {
      process.env.AWS_SECRET_ACCESS_KEY = saved;
    }
  });

  it('serves the product on S3: an upload is stored in the bucket and served from /files/', async () => {
    const server = await startServer({ storageUrl });
    try {
      const { token } = await server.initAdmin();
      const answer = await server.upload('/api/finder/single', 'file', tinyPng, 'a.png', token);
      expect(answer.body.code).toBe(200);
      const url = (answer.body.data as { url: string }).url;
      const served = await fetch(`${server.url}${url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(tinyPng))).toBe(true);
      expect((await (await fetch(`${server.url}/readyz`)).json()).data.storage).toBe('ok');
      expect((await fetch(`${server.url}/files/2026-01/missing.png`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
