import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, topology } from '../../../test/harness';
import {
  binaryManifest,
  loopingManifest,
  makeApk,
  makeZip,
  stringBombManifest,
  zipWithDirectoryOf,
} from '../../../test/packages';
import { ZIP_MAX_ENTRIES, ZIP_SCAN_MS } from '../../http/packages';
import { PARSE_MS } from './apk';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const openFiles = () => readdirSync('/proc/self/fd').length;
/** The longest a version/parse or version/make may take on any APK: the directory walk plus the parse. */
const BOUND_MS = ZIP_SCAN_MS + PARSE_MS + 2_000;
const manifest = binaryManifest({ package: 'com.appdesk.tailor', versionCode: 300, versionName: '3.0.0' });
const release = { platform: 'android', channel: 'huawei', versionName: '3.0.0', versionCode: 300, minVersionCode: 1 };

async function upload(bytes: Uint8Array) {
  const answer = await server.upload('/api/files/update', 'file', bytes, 'hostile.apk', token);
  expect(answer.body.code).toBe(200);
  return (answer.body.file as { fileV: { id: number } }).fileV.id;
}

/** Both routes that read an APK, timed; each answers 400 "cannot read" for a hostile one. */
async function readBoth(fileId: number) {
  const answers: { code: number; message: string; ms: number }[] = [];
  for (const [path, body] of [
    ['/api/version/parse', { app: 'tailor', fileId }],
    ['/api/version/make', { app: 'tailor', ...release, fileId }],
  ] as const) {
    const started = performance.now();
    const answer = await server.call(path, body, token);
    answers.push({ code: answer.body.code, message: answer.body.message, ms: performance.now() - started });
  }
  return answers;
}

const unreadable = { code: 400, message: '无法读取这个 APK 的包信息（AndroidManifest.xml），请确认安装包完整' };
const zeros = Buffer.alloc(256 * 1024 * 1024);

describe('a hostile APK', () => {
  const cases: [string, Uint8Array][] = [
    [
      'a manifest whose declared size understates what it inflates to',
      makeZip([
        {
          name: 'AndroidManifest.xml',
          data: Buffer.concat([manifest, zeros.subarray(0, 300_000)]),
          deflate: true,
          declaredSize: manifest.length,
        },
      ]),
    ],
    [
      'a zip bomb: 256 MB of zeros declared as 4 MB',
      makeZip([{ name: 'AndroidManifest.xml', data: zeros, deflate: true, declaredSize: 4 * 1024 * 1024 }]),
    ],
    [
      'a zip bomb declared honestly',
      makeZip([{ name: 'AndroidManifest.xml', data: zeros.subarray(0, 8 << 20), deflate: true }]),
    ],
    [
      'a truncated manifest entry',
      makeZip([{ name: 'AndroidManifest.xml', data: manifest, deflate: true, truncate: 40 }]),
    ],
    ['a manifest that loops the parser', makeZip([{ name: 'AndroidManifest.xml', data: loopingManifest() }])],
    [
      'a manifest whose strings would take 28 GB',
      makeZip([{ name: 'AndroidManifest.xml', data: stringBombManifest(900_000), deflate: true }]),
    ],
  ];

  it('is refused within the time bound and leaves no file handle open', async () => {
    // Warm up (the first read loads the parser), then count the handles around the hostile ones.
    const good = await upload(makeApk({ package: 'com.appdesk.tailor', versionCode: 1, versionName: '1' }));
    expect((await server.call('/api/version/parse', { app: 'tailor', fileId: good }, token)).body.code).toBe(200);
    const ids = [];
    for (const [, bytes] of cases) ids.push(await upload(bytes));
    const before = openFiles();
    for (const [i, [name]] of cases.entries()) {
      const answers = await readBoth(ids[i]);
      for (const answer of answers) {
        expect([name, answer.code, answer.message]).toEqual([name, unreadable.code, unreadable.message]);
        expect(answer.ms, name).toBeLessThan(BOUND_MS);
      }
    }
    // Behind nginx the process also holds sockets to nginx and the S3 store, which come and go.
    if (topology === 'single') expect(openFiles()).toBe(before);
  }, 120_000);

  it('with a huge central directory is refused at upload, and one just under the bound is read in time', async () => {
    const tooMany = zipWithDirectoryOf(ZIP_MAX_ENTRIES + 1, { name: 'AndroidManifest.xml', data: manifest });
    const refused = await server.upload('/api/files/update', 'file', tooMany, 'many.apk', token);
    expect(refused.body.code).toBe(415);
    const id = await upload(
      zipWithDirectoryOf(ZIP_MAX_ENTRIES - 1_000, { name: 'AndroidManifest.xml', data: manifest }),
    );
    const before = openFiles();
    const started = performance.now();
    const parsed = await server.call('/api/version/parse', { app: 'tailor', fileId: id }, token);
    const ms = performance.now() - started;
    // Read whole within the bound, or refused at it: never longer, never a hang.
    expect(ms).toBeLessThan(BOUND_MS);
    if (parsed.body.code === 200) expect(parsed.body.data).toMatchObject({ packageName: 'com.appdesk.tailor' });
    else expect(parsed.body).toMatchObject(unreadable);
    expect(openFiles()).toBe(before);
  }, 120_000);
});
