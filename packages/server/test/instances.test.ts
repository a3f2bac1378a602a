import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msUntil, SEEN_WITHIN_MS, startServer, type TestServer } from './harness';

const timeUntil = (seen: () => Promise<boolean>) => msUntil(seen, 20, SEEN_WITHIN_MS);

describe('two instances on one database', () => {
  let one: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    one = await startServer();
    other = await one.secondInstance();
  });
  afterAll(async () => {
    await other.close();
    await one.close();
  });

  it('a change through one (site title, remote-config value, blocked user) is seen through the other', async () => {
    const { token } = await one.initAdmin();
    // Both instances have the old title cached.
    const siteTitle = async () =>
      ((await other.call('/api/allocation/fetch')).body.data as { allocation: { title: string } }).allocation.title;
    expect(await siteTitle()).toBe('测试站点');
    expect((await one.call('/api/allocation/update/title', { title: '新标题' }, token)).body.code).toBe(200);
    const title = await timeUntil(async () => (await siteTitle()) === '新标题');
    expect(title).toBeLessThan(SEEN_WITHIN_MS);

    const device = { app: 'tailor', platform: 'android', channel: 'huawei', versionCode: 200, deviceId: 'device-1' };
    const made = await one.call('/api/a11t/make', { key: 'ops.instances', value: 'before' }, token);
    expect(made.body.code).toBe(200);
    const configValue = async () =>
      ((await other.call('/api/a11t/fetch', device)).body.data as { values?: Record<string, unknown> }).values?.[
        'ops.instances'
      ];
    expect(await configValue()).toBe('before');
    const changed = await one.call(
      '/api/a11t/update',
      { id: (made.body.data as { entry: { id: number } }).entry.id, value: 'after' },
      token,
    );
    expect(changed.body.code).toBe(200);
    expect(await timeUntil(async () => (await configValue()) === 'after')).toBeLessThan(SEEN_WITHIN_MS);

    const user = await one.addUser();
    const userToken = await other.login(user.phone, user.password);
    expect((await other.call('/api/users/fetch/info', {}, userToken)).body.code).toBe(200);
    expect((await one.call('/api/users/block', { id: user.id, reason: '测试' }, token)).body.code).toBe(200);
    const refused = await timeUntil(async () =>
      [401, 403].includes((await other.call('/api/users/fetch/info', {}, userToken)).body.code),
    );
    expect(refused).toBeLessThan(SEEN_WITHIN_MS);
  });
});
