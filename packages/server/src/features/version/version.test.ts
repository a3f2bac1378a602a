import { rolloutBucket } from '@appdesk/contract/rollout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crossInstanceSettled, singleInstanceOnly, startServer, type TestServer } from '../../../test/harness';
import { makeApk } from '../../../test/packages';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Release = {
  id: number;
  status: string;
  storeUrl: string;
  channel: string;
  reviewHold: boolean;
  package: { fileId: number; md5: string; sha256: string; size: number; packageName: string } | null;
};
type Latest = {
  updateType: number;
  version: null | {
    id: number;
    versionCode: number;
    versionName: string;
    delivery: string;
    storeUrl: string;
    downloadUrl: string;
    md5: string;
    prompt: { ignorable: boolean };
    channel: string;
  };
};

const admin = async <T>(path: string, body: unknown) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const uploadPackage = async (bytes: Uint8Array, name = 'tailor.apk') => {
  const answer = await server.upload('/api/files/update', 'file', bytes, name, token);
  expect(answer.body.code).toBe(200);
  return (answer.body.file as { fileV: { id: number; sha256: string; size: number } }).fileV;
};
const check = async (channel: string, versionCode: number, deviceId = 'device-1', platform = 'android') => {
  const answer = await server.call('/api/version/fetch/latest', {
    app: 'tailor',
    platform,
    channel,
    versionCode,
    deviceId,
  });
  expect(answer.body.code).toBe(200);
  return answer.body.data as Latest;
};
/** Which of these devices are offered `versionCode`, checking through the API (20 at a time). */
async function offeredTo(devices: string[], versionCode: number, channel = 'huawei') {
  const got: string[] = [];
  for (let i = 0; i < devices.length; i += 20) {
    const answers = await Promise.all(devices.slice(i, i + 20).map((d) => check(channel, 250, d)));
    answers.forEach((a, n) => {
      if (a.version?.versionCode === versionCode) got.push(devices[i + n]);
    });
  }
  return got;
}

let first: Release;
describe('releases', () => {
  it('read an uploaded APK, refuse another app’s package, and keep size, md5 and sha256', async () => {
    const apk = makeApk({ package: 'com.appdesk.tailor', versionCode: 200, versionName: '2.0.0' });
    const file = await uploadPackage(apk);
    const parsed = await admin<{
      packageName: string;
      versionCode: number;
      versionName: string;
      icon: string;
      belongsToApp: boolean;
    }>('/api/version/parse', { fileId: file.id });
    expect(parsed).toMatchObject({
      packageName: 'com.appdesk.tailor',
      versionCode: 200,
      versionName: '2.0.0',
      belongsToApp: true,
    });
    expect(parsed.icon).toMatch(/^data:image\/png;base64,iVBOR/);

    const evil = await uploadPackage(makeApk({ package: 'com.evil.app', versionCode: 200, versionName: '2.0.0' }));
    const base = {
      platform: 'android',
      channel: 'huawei',
      versionName: '2.0.0',
      versionCode: 200,
      minVersionCode: 150,
    };
    const refused = await server.call('/api/version/make', { ...base, fileId: evil.id }, token);
    expect(refused.body).toMatchObject({
      code: 400,
      message: '安装包的包名 com.evil.app 不属于这个应用（应为 com.appdesk.tailor）',
    });
    const wrongCode = await server.call('/api/version/make', { ...base, versionCode: 201, fileId: file.id }, token);
    expect(wrongCode.body.message).toBe('安装包的版本号是 200，与填写的版本号 201 不一致');
    const badMin = await server.call('/api/version/make', { ...base, minVersionCode: 300 }, token);
    expect(badMin.body.message).toBe('最低支持版本号不能大于版本号');

    const { version } = await admin<{ version: Release }>('/api/version/make', {
      ...base,
      changelog: '长截图更快',
      fileId: file.id,
      published: true,
    });
    first = version;
    expect(version.status).toBe('published');
    expect(version.storeUrl).toBe('appmarket://details?id=com.appdesk.tailor');
    expect(version.package).toMatchObject({
      fileId: file.id,
      size: apk.length,
      sha256: file.sha256,
      packageName: 'com.appdesk.tailor',
    });
    expect(version.package?.md5).toMatch(/^[0-9a-f]{32}$/);

    const again = await server.call('/api/version/make', base, token);
    expect(again.body).toMatchObject({ code: 409 });
    // The package is in use now: the uploads list says where, and it cannot be deleted.
    const removeFile = await server.call('/api/files/remove', { id: file.id }, token);
    expect(removeFile.body.code).toBe(409);
    expect(removeFile.body.message).toContain('版本 2.0.0（Android · 华为应用市场）');
  });

  it('answer the update check: forced below the minimum, optional above it, none when current or elsewhere', async () => {
    const forced = await check('huawei', 120);
    expect(forced.updateType).toBe(2);
    expect(forced.version).toMatchObject({
      versionCode: 200,
      versionName: '2.0.0',
      delivery: 'store',
      storeUrl: 'appmarket://details?id=com.appdesk.tailor',
    });
    expect(forced.version?.prompt.ignorable).toBe(false);
    expect(forced.version?.md5).toBe(first.package?.md5);
    const optional = await check('huawei', 180);
    expect([optional.updateType, optional.version?.versionCode, optional.version?.prompt.ignorable]).toEqual([
      1,
      200,
      true,
    ]);
    expect(await check('huawei', 200)).toEqual({ updateType: 0, version: null });
    expect(await check('xiaomi', 120)).toEqual({ updateType: 0, version: null });
    expect(await check('huawei', 120, 'device-1', 'ios')).toEqual({ updateType: 0, version: null });
  });

  it('send an unknown channel to the official site, which downloads the package directly', async () => {
    const file = await uploadPackage(
      makeApk({ package: 'com.appdesk.tailor', versionCode: 200, versionName: '2.0.0' }),
    );
    const noPackage = await server.call(
      '/api/version/make',
      { platform: 'android', channel: 'other', versionName: '2.0.0', versionCode: 200, published: true },
      token,
    );
    expect(noPackage.body.message).toBe('官网渠道直接下载安装包，发布前请先上传安装包');
    await admin('/api/version/make', {
      platform: 'android',
      channel: 'other',
      versionName: '2.0.0',
      versionCode: 200,
      fileId: file.id,
      published: true,
    });
    const answer = await check('some-unknown-store', 100);
    expect(answer.updateType).toBe(1);
    expect(answer.version).toMatchObject({ channel: 'other', delivery: 'direct', storeUrl: '' });
    expect(answer.version?.downloadUrl).toMatch(/^http:\/\/localhost:\d+\/files\/\d{4}-\d{2}\/[\w-]+\.apk$/);
  });

  it('offers a release to the devices the rollout function puts in its share, and raising it keeps them', async () => {
    const { version } = await admin<{ version: Release }>('/api/version/make', {
      platform: 'android',
      channel: 'huawei',
      versionName: '3.0.0',
      versionCode: 300,
      rollout: 10,
      published: true,
    });
    // The share's distribution is checked on the function itself (contract/test/rollout.test.ts);
    // here a few devices of each part of the range: inside 10 %, between 10 and 50 %, above 50 %.
    const bucket = (device: string) => rolloutBucket(device, 'version:tailor:android:300');
    const devices = Array.from({ length: 200 }, (_, i) => `android-${i}`);
    const pick = (from: number, to: number) => devices.filter((d) => bucket(d) >= from && bucket(d) < to).slice(0, 8);
    const [inTen, inFifty, outside] = [pick(0, 1000), pick(1000, 5000), pick(5000, 10_000)];
    expect([inTen, inFifty, outside].map((part) => part.length)).toEqual([8, 8, 8]);
    const sample = [...inTen, ...inFifty, ...outside];
    await crossInstanceSettled();
    expect(await offeredTo(sample, 300)).toEqual(inTen);
    await admin('/api/version/update', { id: version.id, rollout: 50 });
    await crossInstanceSettled();
    expect(await offeredTo(sample, 300)).toEqual([...inTen, ...inFifty]);
  });

  it.runIf(
    singleInstanceOnly(
      'asserts that a change shows at once on the instance that made it; across instances a cached answer is invalidated within a second (cluster.test.ts measures it)',
    ),
  )('pause, roll back and publish again; copy to channels as drafts; hold prompts during vivo review', async () => {
    const { list } = await admin<{ list: Release[] }>('/api/version/fetch/page', { channel: 'huawei', search: '3.0' });
    const three = list[0];
    await admin('/api/version/update', { id: three.id, rollout: 100 });
    expect((await check('huawei', 180)).version?.versionCode).toBe(300);
    await admin('/api/version/pause', { id: three.id });
    expect((await check('huawei', 180)).version?.versionCode).toBe(200);
    await admin('/api/version/publish', { id: three.id });
    expect((await check('huawei', 180)).version?.versionCode).toBe(300);
    await admin('/api/version/rollback', { id: three.id });
    expect((await check('huawei', 180)).version?.versionCode).toBe(200);
    expect((await server.call('/api/version/pause', { id: three.id }, token)).body.code).toBe(409);

    const copied = await admin<{ created: Release[]; skipped: string[] }>('/api/version/copy', {
      id: first.id,
      channels: ['xiaomi', 'vivo', 'huawei'],
    });
    expect(copied.created.map((v) => [v.channel, v.status, v.storeUrl, v.reviewHold])).toEqual([
      ['xiaomi', 'draft', 'mimarket://details?id=com.appdesk.tailor', false],
      ['vivo', 'draft', 'vivomarket://details?id=com.appdesk.tailor', true],
    ]);
    expect(
      (await admin<{ skipped: string[] }>('/api/version/copy', { id: first.id, channels: ['xiaomi'] })).skipped,
    ).toEqual(['xiaomi']);
    const vivo = copied.created[1];
    await admin('/api/version/publish', { id: vivo.id });
    expect(await check('vivo', 180)).toEqual({ updateType: 0, version: null });
    expect((await check('vivo', 120)).updateType).toBe(2);
    await admin('/api/version/update', { id: vivo.id, reviewHold: false });
    expect((await check('vivo', 180)).updateType).toBe(1);

    const matrix = await admin<{
      columns: { versionCode: number }[];
      rows: { channel: string; cells: { versionCode: number; status: string }[] }[];
    }>('/api/version/fetch/matrix', { platform: 'android' });
    expect(matrix.columns.map((c) => c.versionCode)).toEqual([300, 200]);
    expect(matrix.rows.find((r) => r.channel === 'huawei')?.cells.map((c) => [c.versionCode, c.status])).toEqual([
      [300, 'rolledback'],
      [200, 'published'],
    ]);
    expect(matrix.rows.find((r) => r.channel === 'xiaomi')?.cells.map((c) => c.status)).toEqual(['draft']);

    expect((await server.call('/api/version/remove', { id: first.id }, token)).body.code).toBe(409);
    await admin('/api/version/remove', { id: copied.created[0].id });
  });

  it.runIf(
    singleInstanceOnly(
      "counts are buffered in each instance before they are written, so one instance's figures lack the other's latest",
    ),
  )('count checks, prompts and downloads per version, channel and day', async () => {
    const before = await admin<{
      list: { versionId: number; channel: string; checks: number; prompts: number; downloads: number }[];
    }>('/api/version/fetch/stats', { channel: 'huawei' });
    const row = () => before.list.find((r) => r.versionId === first.id);
    const checks = row()?.checks ?? 0;
    await check('huawei', 120);
    await server.call('/api/version/report', { id: first.id, event: 'prompt', channel: 'huawei' });
    await server.call('/api/version/report', { id: first.id, event: 'download', channel: 'huawei' });
    const after = await admin<typeof before>('/api/version/fetch/stats', { channel: 'huawei' });
    expect(after.list.find((r) => r.versionId === first.id)).toMatchObject({
      checks: checks + 1,
      prompts: (row()?.prompts ?? 0) + 1,
      downloads: (row()?.downloads ?? 0) + 1,
    });
  });
});

describe('a second server on the same database', () => {
  it('sees a release published elsewhere within a second (its copy is kept at most that long)', async () => {
    const other = await server.secondInstance();
    try {
      const ask = async () =>
        (
          await other.call('/api/version/fetch/latest', {
            app: 'tailor',
            platform: 'android',
            channel: 'samsung',
            versionCode: 100,
            deviceId: 'device-2',
          })
        ).body.data as Latest;
      expect(await ask()).toEqual({ updateType: 0, version: null });
      await admin('/api/version/make', {
        platform: 'android',
        channel: 'samsung',
        versionName: '4.0.0',
        versionCode: 400,
        published: true,
      });
      const started = Date.now();
      let seen = await ask();
      while (seen.version === null && Date.now() - started < 3000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await ask();
      }
      expect(seen.version?.versionCode).toBe(400);
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      await other.close();
    }
  });
});
