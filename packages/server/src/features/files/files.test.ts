import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeApk,
  makeZip,
  singleInstanceOnly,
  startServer,
  type TestServer,
  tinyApk,
  tinyPng,
} from '../../../test/harness';

let server: TestServer;
let token: string;
beforeAll(async () => {
  // A small package limit, so "too large" is cheap to reach.
  server = await startServer();
  server.config.limits.package = 64 * 1024;
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type FileV = {
  id: number;
  url: string;
  key: string;
  name: string;
  size: number;
  sha256: string;
  mime: string;
  kind: string;
};

const stored = () => {
  const root = path.join(server.config.dataDir, 'files');
  return existsSync(root) ? readdirSync(root, { recursive: true }).filter((f) => String(f).includes('.')) : [];
};
const leftovers = () => readdirSync(path.join(server.config.dataDir, 'tmp'));
const rowCount = async () =>
  Number(
    (
      await server.app.services.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const aab = makeZip([
  { name: 'BundleConfig.pb', data: 'x' },
  { name: 'base/manifest/AndroidManifest.xml', data: 'x' },
]);
const ipa = makeZip([{ name: 'Payload/Tailor.app/Info.plist', data: '<plist/>' }]);
const plainZip = makeZip([{ name: 'readme.txt', data: 'hello' }]);
const jarFirst = makeZip([
  { name: 'META-INF/MANIFEST.MF', data: 'Manifest-Version: 1.0' },
  { name: 'AndroidManifest.xml', data: 'x' },
]);

describe('files/update (app packages)', () => {
  it.runIf(
    singleInstanceOnly(
      'looks at the local files/ folder; behind nginx files are in S3 (the storage contract covers S3)',
    ),
  )('keeps an APK under a generated key and answers file.fileV with its size and sha256', async () => {
    const answer = await server.upload('/api/files/update', 'file', tinyApk, 'tailor-2.0.0.apk', token);
    expect(answer.body.code).toBe(200);
    const fileV = (answer.body.file as { fileV: FileV }).fileV;
    expect(fileV).toMatchObject({
      name: 'tailor-2.0.0.apk',
      size: tinyApk.length,
      sha256: createHash('sha256').update(tinyApk).digest('hex'),
      mime: 'application/vnd.android.package-archive',
      kind: 'package',
    });
    expect(fileV.key).toMatch(/^\d{4}-\d{2}\/[\w-]{16}\.apk$/);
    expect(fileV.url).toBe(`/files/${fileV.key}`);
    expect(readFileSync(path.join(server.config.dataDir, 'files', fileV.key))).toEqual(Buffer.from(tinyApk));
    const served = await fetch(server.url + fileV.url);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('names a package a release uses by its platform and channel in words', async () => {
    const apk = makeApk({ package: 'com.appdesk.tailor', versionCode: 910, versionName: '9.1.0' });
    const upload = await server.upload('/api/files/update', 'file', apk, 'release.apk', token);
    const fileV = (upload.body.file as { fileV: FileV }).fileV;
    const made = await server.call(
      '/api/version/make',
      { platform: 'android', channel: 'huawei', versionName: '9.1.0', versionCode: 910, fileId: fileV.id },
      token,
    );
    expect([made.body.code, made.body.message]).toEqual([200, made.body.message]);
    const page = await server.call('/api/files/fetch/page', { kind: 'package', size: 50 }, token);
    const row = (page.body.data as { list: (FileV & { usedBy: string[] })[] }).list.find((f) => f.id === fileV.id);
    expect(row?.usedBy).toEqual(['版本 9.1.0（Android · 华为应用市场）']);
  });

  it('tells APK, AAB and IPA apart by their entries, whatever the name says', async () => {
    for (const [bytes, name, mime, ext] of [
      [aab, 'x.apk', 'application/x-android-app-bundle', 'aab'],
      [ipa, 'x.apk', 'application/x-ios-app', 'ipa'],
      [jarFirst, 'x.ipa', 'application/vnd.android.package-archive', 'apk'],
    ] as const) {
      const answer = await server.upload('/api/files/update', 'file', bytes, name, token);
      const fileV = (answer.body.file as { fileV: FileV }).fileV;
      expect([fileV.mime, fileV.key.split('.').pop()]).toEqual([mime, ext]);
    }
  });

  it('refuses what is not a package (415) and what is too large (413), leaving no file or row', async () => {
    const files = stored().length;
    const rows = await rowCount();
    for (const [bytes, code] of [
      [plainZip, 415],
      [tinyPng, 415],
      [new TextEncoder().encode('PK\u0003\u0004 not really a zip'), 415],
      [makeZip([{ name: 'AndroidManifest.xml', data: 'x'.repeat(70 * 1024) }]), 413],
    ] as const) {
      const answer = await server.upload('/api/files/update', 'file', bytes, 'x.apk', token);
      expect([answer.body.code, answer.body.message]).toEqual([code, answer.body.message]);
      expect(answer.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(stored().length).toBe(files);
    expect(await rowCount()).toBe(rows);
    expect(leftovers()).toEqual([]);
  });

  it('never lets the client name decide where a file is stored', async () => {
    const long = '截'.repeat(300);
    for (const name of ['../../x.apk', '..\\..\\evil\\x.apk', `${long}.apk`, '/etc/passwd']) {
      const answer = await server.upload('/api/files/update', 'file', tinyApk, name, token);
      const fileV = (answer.body.file as { fileV: FileV }).fileV;
      expect(fileV.key).toMatch(/^\d{4}-\d{2}\/[\w-]{16}\.apk$/);
      expect(fileV.name).not.toMatch(/[\\/]/);
      expect([...fileV.name].length).toBeLessThanOrEqual(200);
    }
    expect(existsSync(path.join(server.config.dataDir, '..', 'x.apk'))).toBe(false);
  });
});

describe('finder/single (any accepted file)', () => {
  it('takes an image or a package and answers it in data; refuses anything else', async () => {
    const image = await server.upload('/api/finder/single', 'file', tinyPng, 'a.png', token);
    expect(image.body).toMatchObject({ code: 200, data: { kind: 'image', mime: 'image/png' } });
    const apk = await server.upload('/api/finder/single', 'file', tinyApk, 'a.apk', token);
    expect(apk.body).toMatchObject({ code: 200, data: { kind: 'package' } });
    const script = await server.upload(
      '/api/finder/single',
      'file',
      new TextEncoder().encode('#!/bin/sh'),
      'a.png',
      token,
    );
    expect(script.body.code).toBe(415);
  });
});

describe('the uploads list', () => {
  it.runIf(
    singleInstanceOnly(
      'looks at the local files/ folder; behind nginx files are in S3 (the storage contract covers S3)',
    ),
  )('lists files with uploader and uses, and deletes only a file nothing refers to', async () => {
    const logo = await server.upload('/api/allocation/update/logo', 'logo', tinyPng, 'logo.png', token);
    expect(logo.body.code).toBe(200);
    const page = await server.call('/api/files/fetch/page', { kind: 'image', size: 50 }, token);
    const data = page.body.data as { list: (FileV & { usedBy: string[]; uploader: string })[]; total: number };
    expect(data.total).toBe(2);
    const used = data.list.find((f) => f.name === 'logo.png');
    const unused = data.list.find((f) => f.name === 'a.png');
    expect(used?.usedBy).toEqual(['站点 Logo']);
    expect(used?.uploader).toBe('管理员（138****0000）');
    expect(unused?.usedBy).toEqual([]);

    const refused = await server.call('/api/files/remove', { id: used?.id }, token);
    expect(refused.body).toMatchObject({ code: 409 });
    expect(existsSync(path.join(server.config.dataDir, 'files', used?.key ?? ''))).toBe(true);
    const removed = await server.call('/api/files/remove', { id: unused?.id }, token);
    expect(removed.body.code).toBe(200);
    expect(existsSync(path.join(server.config.dataDir, 'files', unused?.key ?? ''))).toBe(false);

    const search = await server.call('/api/files/fetch/page', { search: used?.sha256.slice(0, 12) }, token);
    expect((search.body.data as { list: FileV[] }).list.map((f) => f.id)).toEqual([used?.id]);
  });
});
