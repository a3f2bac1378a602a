import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleInstanceOnly, snapshotTables, startServer, type TestServer, tinyPng } from '../../../test/harness';
import { makeExtensibleWav, makeMp3, makeWav } from '../../../test/media';
import { loadConfig } from '../../config';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer({ limits: { ...loadConfig().limits, audio: 200 * 1024 } });
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Sound = {
  id: number;
  name: string;
  url: string;
  durationMs: number;
  codec: string;
  sampleRate: number;
  sha256: string;
};
type Made = { code: number; message: string; data?: { sound: Sound; duplicate: boolean } };
const storedFiles = () => {
  const root = path.join(server.config.dataDir, 'files');
  return existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length
    : 0;
};

async function uploadSound(bytes: Uint8Array, name: string, fields: Record<string, unknown> = {}): Promise<Made> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, JSON.stringify(value));
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  const res = await fetch(`${server.url}/api/soundeffect/make`, { method: 'POST', headers: { token }, body: form });
  return (await res.json()) as Made;
}

describe('sound effects', () => {
  it('names the encoding of an extensible WAV in words, and keeps a sound under a second to the millisecond', async () => {
    const pcm = await uploadSound(makeExtensibleWav(0.3, 8000, 21, 1), '短促.wav');
    expect(pcm.code).toBe(200);
    expect(pcm.data?.sound).toMatchObject({ durationMs: 300, codec: 'PCM', sampleRate: 8000 });
    const float = await uploadSound(makeExtensibleWav(0.5, 8000, 22, 3), '浮点.wav');
    expect(float.data?.sound).toMatchObject({ durationMs: 500, codec: 'IEEE 浮点' });
  });

  it('read duration, codec and sample rate; the same bytes again answer the sound already kept', async () => {
    const mp3 = makeMp3(3, 11);
    const first = await uploadSound(mp3, '金币.mp3', { category: '提示音' });
    expect(first.code).toBe(200);
    const sound = first.data?.sound as Sound;
    expect(first.data?.duplicate).toBe(false);
    expect(sound.name).toBe('金币');
    expect(Math.abs(sound.durationMs - 3000)).toBeLessThan(60);
    expect([sound.codec, sound.sampleRate]).toEqual(['MPEG 1 Layer 3', 44_100]);

    const wav = await uploadSound(makeWav(1.5, 8000, 2), '点击.wav', { category: '提示音', sort: 1 });
    expect(wav.data?.sound).toMatchObject({ durationMs: 1500, codec: 'PCM', sampleRate: 8000 });

    const files = storedFiles();
    const rows = await server.app.services.db.selectFrom('files').select('id').execute();
    const again = await uploadSound(mp3, '金币-副本.mp3');
    expect(again.code).toBe(200);
    expect(again.data?.duplicate).toBe(true);
    expect(again.data?.sound.id).toBe(sound.id);
    expect(storedFiles()).toBe(files);
    expect(await server.app.services.db.selectFrom('files').select('id').execute()).toEqual(rows);

    const app = await server.call('/api/soundeffect/fetch/list', { category: '提示音' });
    const list = (app.body.data as { list: Sound[] }).list;
    expect(list.map((s) => s.name)).toEqual(['金币', '点击']);
  });

  it('refuses what is not whole audio within the limit, leaving no file or row', async () => {
    const cases: [string, Uint8Array, number, RegExp][] = [
      ['图.png', tinyPng, 415, /只接受音频文件/],
      ['空.mp3', new Uint8Array(0), 400, /空的/],
      ['长.wav', makeWav(20, 8000, 3), 413, /音频不能超过/],
      ['坏.wav', makeWav(1, 8000, 4).subarray(0, 40), 415, /音频|损坏/],
    ];
    for (const [name, bytes, code, message] of cases) {
      const before = await snapshotTables(server, ['sessions']);
      const files = storedFiles();
      const answer = await uploadSound(bytes, name);
      expect([name, answer.code]).toEqual([name, code]);
      expect(answer.message).toMatch(message);
      expect(await snapshotTables(server, ['sessions'])).toBe(before);
      expect(storedFiles()).toBe(files);
    }
  });

  it.runIf(
    singleInstanceOnly(
      'looks at the local files/ folder; behind nginx files are in S3 (the storage contract covers S3)',
    ),
  )('removes a sound with its file; disabled sounds are not offered to the apps', async () => {
    const made = await uploadSound(makeWav(0.5, 8000, 5), '删除我.wav', { category: '临时' });
    const sound = made.data?.sound as Sound;
    await server.call('/api/soundeffect/update', { id: sound.id, enabled: false }, token);
    const app = await server.call('/api/soundeffect/fetch/list', { category: '临时' });
    expect((app.body.data as { list: Sound[] }).list).toEqual([]);
    const files = storedFiles();
    expect((await server.call('/api/soundeffect/remove', { id: sound.id }, token)).body.code).toBe(200);
    expect(storedFiles()).toBe(files - 1);
    expect((await fetch(server.url + sound.url)).status).toBe(404);
  });
});
