import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local';
import { keyOfUrl } from './references';

let dir: string;
let storage: LocalStorage;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'appdesk-storage-'));
  storage = new LocalStorage(dir);
  await storage.init();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('local storage', () => {
  it('puts derived bytes under a new generated key that remove deletes', async () => {
    const key = await storage.put(Buffer.from('thumb'), 'webp');
    expect(keyOfUrl(storage.url(key))).toBe(key);
    expect(key).toMatch(/^\d{4}-\d{2}\/[\w-]+\.webp$/);
    expect(await readFile(path.join(storage.root, key), 'utf8')).toBe('thumb');
    expect(await storage.put(Buffer.from('thumb'), 'webp')).not.toBe(key);
    await storage.remove(key);
    await expect(readFile(path.join(storage.root, key))).rejects.toThrow();
  });
});
