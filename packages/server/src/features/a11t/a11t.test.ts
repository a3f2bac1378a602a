import { rolloutBucket } from '@appdesk/contract/rollout';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleInstanceOnly, startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Entry = { id: number; key: string; type: string; value: string; revision: number };
type Revision = {
  revision: number;
  action: string;
  value: string;
  previous: { value: string } | null;
  rolledBackTo: number | null;
  actor: string;
};
type Fetched = { tag: string; unchanged?: true; values?: Record<string, unknown> };

const admin = async <T>(path: string, body: unknown) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const fetchConfig = async (
  device: { channel?: string; versionCode?: number; deviceId?: string; platform?: string; tag?: string } = {},
) => {
  const answer = await server.call('/api/a11t/fetch', {
    app: 'tailor',
    platform: 'android',
    channel: 'huawei',
    versionCode: 200,
    deviceId: 'device-1',
    ...device,
  });
  expect(answer.body.code).toBe(200);
  return answer.body.data as Fetched;
};

describe('remote config', () => {
  it('checks keys and values against their types before saving', async () => {
    const bad = [
      [{ key: 'Bad-Key', value: 'x' }, '键名以小写字母开头'],
      [{ key: 'price', type: 'number', value: '12元' }, '值“12元”不是有效的数字'],
      [{ key: 'flag', type: 'boolean', value: 'yes' }, '值布尔值只能是 true 或 false'],
      [{ key: 'conf', type: 'json', value: '{a:1}' }, '值不是有效的 JSON'],
      [{ key: 'ov', type: 'number', value: '1', overrides: [{ value: 'abc' }] }, '值“abc”不是有效的数字'],
    ] as const;
    for (const [body, message] of bad) {
      const answer = await server.call('/api/a11t/make', body, token);
      expect(answer.body.code).toBe(400);
      expect(answer.body.message).toContain(message);
    }
    const { entry } = await admin<{ entry: Entry }>('/api/a11t/make', {
      key: 'limits',
      type: 'json',
      value: '{ "max": 5 }',
    });
    expect(entry.value).toBe('{"max":5}');
    const again = await server.call('/api/a11t/make', { key: 'limits', value: 'x' }, token);
    expect(again.body).toMatchObject({ code: 409, message: '键名 limits 已存在' });
  });

  it.runIf(
    singleInstanceOnly(
      'asserts that a change shows at once on the instance that made it; across instances a cached answer is invalidated within a second (cluster.test.ts measures it)',
    ),
  )('keeps every change as a revision, rolls back as a new one, and the app sees it with a new tag', async () => {
    const { entry } = await admin<{ entry: Entry }>('/api/a11t/make', {
      key: 'signup_coins',
      type: 'number',
      value: '30',
      description: '注册赠送金币',
    });
    const first = await fetchConfig();
    expect(first.values).toMatchObject({ signup_coins: 30, limits: { max: 5 } });
    for (const value of ['40', '50', '60']) await admin('/api/a11t/update', { id: entry.id, value });
    const changed = await fetchConfig({ tag: first.tag });
    expect(changed.values?.signup_coins).toBe(60);
    const bad = await server.call('/api/a11t/update', { id: entry.id, value: 'sixty' }, token);
    expect(bad.body.code).toBe(400);

    const { list } = await admin<{ list: Revision[] }>('/api/a11t/fetch/revisions', { id: entry.id });
    expect(list.map((r) => [r.revision, r.action, r.previous?.value ?? null, r.value])).toEqual([
      [4, 'update', '50', '60'],
      [3, 'update', '40', '50'],
      [2, 'update', '30', '40'],
      [1, 'make', null, '30'],
    ]);
    expect(list[0].actor).toBe('管理员（138****0000）');

    const { entry: rolled } = await admin<{ entry: Entry }>('/api/a11t/rollback', { id: entry.id, revision: 1 });
    expect([rolled.value, rolled.revision]).toEqual(['30', 5]);
    const after = await fetchConfig({ tag: changed.tag });
    expect(after.values?.signup_coins).toBe(30);
    // Same values as at first, yet a new tag: the app learns that something happened.
    expect(after.tag).not.toBe(first.tag);
    expect(after.tag).not.toBe(changed.tag);
    expect(await fetchConfig({ tag: after.tag })).toEqual({ tag: after.tag, unchanged: true });
    const history = await admin<{ list: Revision[] }>('/api/a11t/fetch/revisions', { id: entry.id });
    expect(history.list[0]).toMatchObject({
      revision: 5,
      action: 'rollback',
      rolledBackTo: 1,
      previous: { value: '60' },
    });

    // Registration reads the same pair (an existing product key, edited here like any other).
    const register = await server.call('/api/users/register', {
      phone: '13700000001',
      password: 'a'.repeat(64),
      app: 'tailor',
      channel: 'huawei',
    });
    expect(register.body.code).toBe(200);
    const { coins } = await server.app.services.db
      .selectFrom('users')
      .select('coins')
      .where('phone', '=', '13700000001')
      .executeTakeFirstOrThrow();
    expect(Number(coins)).toBe(30);
  });

  it('never updates or deletes a revision (the database refuses)', async () => {
    const db = server.app.services.db;
    await expect(sql`update key_value_revisions set value = 'x'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from key_value_revisions`.execute(db)).rejects.toThrow(/append-only/);
    const { list } = await admin<{ list: Entry[] }>('/api/a11t/fetch/page', { search: 'limits' });
    await admin('/api/a11t/remove', { id: list[0].id });
    const kept = await admin<{ list: Revision[] }>('/api/a11t/fetch/revisions', { id: list[0].id });
    expect(kept.list.map((r) => r.action)).toEqual(['remove', 'make']);
    expect((await fetchConfig()).values).not.toHaveProperty('limits');
  });

  it.runIf(
    singleInstanceOnly(
      'asserts that a change shows at once on the instance that made it; across instances a cached answer is invalidated within a second (cluster.test.ts measures it)',
    ),
  )('resolves overrides top-down: channel, platform, version range and a stable share of devices', async () => {
    const { entry } = await admin<{ entry: Entry }>('/api/a11t/make', {
      key: 'feature.new_stitch',
      type: 'boolean',
      value: 'false',
      overrides: [
        { platforms: ['ios'], value: 'false' },
        { channels: ['huawei'], minVersionCode: 200, maxVersionCode: 299, percent: 20, value: 'true' },
        { minVersionCode: 900, value: 'true' },
      ],
    });
    expect((await fetchConfig({ versionCode: 950 })).values?.['feature.new_stitch']).toBe(true);
    expect((await fetchConfig({ versionCode: 950, platform: 'ios' })).values?.['feature.new_stitch']).toBe(false);

    // Which of these devices get the override's value through the API (25 at a time).
    const share = async (ids: string[], channel = 'huawei', versionCode = 250) => {
      const on: string[] = [];
      for (let i = 0; i < ids.length; i += 25) {
        const part = ids.slice(i, i + 25);
        const answers = await Promise.all(part.map((deviceId) => fetchConfig({ channel, deviceId, versionCode })));
        answers.forEach((a, n) => {
          if (a.values?.['feature.new_stitch'] === true) on.push(part[n]);
        });
      }
      return on;
    };
    // The share's distribution is checked on the function itself (contract/test/rollout.test.ts);
    // here a few devices of each part of the range: inside 20 %, between 20 and 40 %, above 40 %.
    const bucket = (device: string) => rolloutBucket(device, 'config:feature.new_stitch');
    const devices = Array.from({ length: 200 }, (_, i) => `dev-${i}`);
    const pick = (from: number, to: number) => devices.filter((d) => bucket(d) >= from && bucket(d) < to).slice(0, 8);
    const [inTwenty, inForty, outside] = [pick(0, 2000), pick(2000, 4000), pick(4000, 10_000)];
    expect([inTwenty, inForty, outside].map((part) => part.length)).toEqual([8, 8, 8]);
    const sample = [...inTwenty, ...inForty, ...outside];
    expect(await share(sample)).toEqual(inTwenty);
    // Another channel, or a version below the range: nobody.
    expect(await share(inTwenty, 'xiaomi')).toEqual([]);
    expect(await share(inTwenty, 'huawei', 199)).toEqual([]);

    // Raising the share keeps every device that had it.
    await admin('/api/a11t/update', {
      id: entry.id,
      overrides: [{ channels: ['huawei'], minVersionCode: 200, maxVersionCode: 299, percent: 40, value: 'true' }],
    });
    expect(await share(sample)).toEqual([...inTwenty, ...inForty]);
  });
});
