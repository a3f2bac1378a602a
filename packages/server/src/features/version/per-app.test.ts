import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { makeApk } from '../../../test/packages';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
  await admin('/api/apps/make', {
    code: 'quote',
    name: '名言',
    androidPackage: 'com.appdesk.quote',
    channels: [
      { channel: 'huawei' },
      { channel: 'xiaomi', storeLink: 'mimarket://details?id=com.appdesk.quote&ref=desk' },
      { channel: 'other' },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

type Release = { id: number; storeUrl: string };
type Latest = { updateType: number; version: null | { id: number; channel: string; storeUrl: string } };
const admin = async <T>(path: string, body: unknown) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const upload = async (pkg: string) => {
  const bytes = makeApk({ package: pkg, versionCode: 300, versionName: '3.0.0' });
  const answer = await server.upload('/api/files/update', 'file', bytes, `${pkg}.apk`, token);
  return (answer.body.file as { fileV: { id: number } }).fileV.id;
};
const check = async (app: string, channel: string) =>
  (
    await server.call('/api/version/fetch/latest', {
      app,
      platform: 'android',
      channel,
      versionCode: 1,
      deviceId: 'device-per-app',
    })
  ).body.data as Latest;
const base = { app: 'quote', platform: 'android', versionName: '3.0.0', versionCode: 300, minVersionCode: 1 };

describe('releases per app', () => {
  it('check packages and store links against the app’s own entry, and its channels', async () => {
    const tailorApk = await upload('com.appdesk.tailor');
    const refused = await server.call('/api/version/make', { ...base, channel: 'huawei', fileId: tailorApk }, token);
    expect(refused.body.message).toBe('安装包的包名 com.appdesk.tailor 不属于这个应用（应为 com.appdesk.quote）');
    const quoteApk = await upload('com.appdesk.quote');
    const parsed = await admin<{ belongsToApp: boolean; expectedPackage: string }>('/api/version/parse', {
      app: 'quote',
      fileId: quoteApk,
    });
    expect(parsed).toMatchObject({ belongsToApp: true, expectedPackage: 'com.appdesk.quote' });

    // The channel's template with the app's package, or the app's own link on the channel.
    const huawei = (
      await admin<{ version: Release }>('/api/version/make', {
        ...base,
        channel: 'huawei',
        fileId: quoteApk,
        published: true,
      })
    ).version;
    expect(huawei.storeUrl).toBe('appmarket://details?id=com.appdesk.quote');
    const xiaomi = (
      await admin<{ version: Release }>('/api/version/make', { ...base, channel: 'xiaomi', published: true })
    ).version;
    expect(xiaomi.storeUrl).toBe('mimarket://details?id=com.appdesk.quote&ref=desk');
    const vivo = await server.call('/api/version/make', { ...base, channel: 'vivo' }, token);
    expect([vivo.body.code, vivo.body.message]).toEqual([
      400,
      '应用「名言」不在「vivo 应用商店」渠道上架，请先在应用管理中添加该渠道',
    ]);

    // Each app's check sees only its own releases.
    expect((await check('quote', 'huawei')).version?.id).toBe(huawei.id);
    expect(await check('tailor', 'huawei')).toEqual({ updateType: 0, version: null });
    // A channel the app does not ship on answers as an unknown one: the official site's releases.
    expect(await check('quote', 'vivo')).toEqual({ updateType: 0, version: null });
    const site = (
      await admin<{ version: Release }>('/api/version/make', {
        ...base,
        channel: 'other',
        fileId: quoteApk,
        published: true,
      })
    ).version;
    expect((await check('quote', 'vivo')).version).toMatchObject({ id: site.id, channel: 'other' });
    expect((await check('quote', 'no-such-store')).version).toMatchObject({ id: site.id, channel: 'other' });
    expect(await check('tailor', 'other')).toEqual({ updateType: 0, version: null });

    // Copying to channels skips the ones the app does not ship on, and says so.
    const copied = await admin<{ created: unknown[]; skipped: string[] }>('/api/version/copy', {
      id: huawei.id,
      channels: ['vivo', 'xiaomi'],
    });
    expect(copied.skipped.sort()).toEqual(['vivo', 'xiaomi']);
  });
});
