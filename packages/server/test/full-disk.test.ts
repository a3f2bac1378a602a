import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startServer, type TestServer, testDb, tinyApk, tinyPng } from './harness';
import { makeWav } from './media';

/**
 * The data folder on its own small tmpfs, filled to the last byte: deletes still answer 200.
 * Needs root (mount); SQLite only (PostgreSQL's disk is the database server's).
 */
const canMount = (() => {
  if (testDb !== 'sqlite' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(tmpdir(), 'appdesk-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();
if (!canMount) console.log('skipped: the full-disk test mounts a tmpfs (root, SQLite only)');

let dir = '';
let server: TestServer;
let token: string;
beforeAll(async () => {
  if (!canMount) return;
  dir = mkdtempSync(path.join(tmpdir(), 'appdesk-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dir]);
  server = await startServer({ dataDir: dir }, await openTestDatabase(dir));
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  if (!canMount) return;
  await server?.close();
  execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
});

async function upload(path: string, bytes: Uint8Array, name: string, fields: Record<string, unknown> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, JSON.stringify(value));
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { token }, body: form });
  const body = (await res.json()) as {
    code: number;
    data?: Record<string, { id: number }>;
    file?: { fileV: { id: number } };
  };
  expect(body.code).toBe(200);
  return body;
}

/** Writes zeros into the data folder's filesystem until it has not a byte left. */
function fillDisk(): number {
  const fd = openSync(path.join(dir, 'filler'), 'w');
  let written = 0;
  try {
    for (let chunk = 1 << 20; chunk >= 512; ) {
      try {
        written += writeSync(fd, Buffer.alloc(chunk));
      } catch {
        chunk /= 2;
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

describe.runIf(canMount)('a full disk', () => {
  it('still lets an operator delete files, images and sound effects', async () => {
    const files = [];
    for (let i = 0; i < 3; i++) files.push((await upload('/api/files/update', tinyApk, `a${i}.apk`)).file?.fileV.id);
    const image = (await upload('/api/unsplash/make', tinyPng, '图.png')).data?.image.id;
    const sound = (await upload('/api/soundeffect/make', makeWav(0.2), '音.wav', { category: '提示音' })).data?.sound
      .id;
    fillDisk();
    expect(statfsSync(dir).bavail).toBe(0);
    // A write that needs room is refused as an outage...
    const write = await server.call('/api/help/make', { title: '满', content: '磁盘已满' }, token);
    expect(write.body.code).toBe(503);
    // ...but deletes go through, and so do the ones after them.
    for (const id of files) {
      expect((await server.call('/api/files/remove', { id }, token)).body).toMatchObject({ code: 200 });
    }
    expect((await server.call('/api/unsplash/remove', { ids: [image] }, token)).body).toMatchObject({ code: 200 });
    expect((await server.call('/api/soundeffect/remove', { id: sound }, token)).body).toMatchObject({ code: 200 });
    const list = await server.call('/api/files/fetch/page', { page: 1, size: 20 }, token);
    expect((list.body.data as { list: { id: number }[] }).list.map((f) => f.id)).not.toContain(files[0]);
  }, 60_000);
});
