import { callOk } from './api';

/**
 * What the app-facing scenarios need on each server (SQLite and PostgreSQL alike), made through the
 * API as an operator would: releases 1.0.0 to 3.0.0 on a few channels (the newest at a 30 %
 * rollout), and twenty config keys, some with overrides. Answers the config tag of the device the
 * "unchanged" scenario asks as.
 */
export async function prepareAppData(base: string, token: string): Promise<{ configTag: string; deviceId: string }> {
  const deviceId = 'bench-device-unchanged';
  const device = { app: 'tailor', platform: 'android', channel: 'huawei', versionCode: 250, deviceId } as const;
  // A database kept from an earlier run (--from-postgres) has them already.
  const before = await callOk(base, '/api/a11t/fetch', device);
  if (before.values && 'bench.key_0' in before.values) return { configTag: before.tag, deviceId };
  for (const channel of ['huawei', 'xiaomi', 'oppo', 'vivo'] as const) {
    for (const [name, code, rollout] of [
      ['1.0.0', 100, 100],
      ['1.5.0', 150, 100],
      ['2.0.0', 200, 100],
      ['3.0.0', 300, 30],
    ] as const) {
      await callOk(
        base,
        '/api/version/make',
        {
          platform: 'android',
          channel,
          versionName: name,
          versionCode: code,
          minVersionCode: code === 300 ? 150 : 0,
          changelog: `${name} 更新说明`,
          rollout,
          reviewHold: false,
          published: true,
        },
        token,
      );
    }
  }
  for (let i = 0; i < 20; i += 1) {
    await callOk(
      base,
      '/api/a11t/make',
      {
        key: `bench.key_${i}`,
        type: i % 4 === 0 ? 'json' : i % 4 === 1 ? 'number' : i % 4 === 2 ? 'boolean' : 'string',
        value: i % 4 === 0 ? '{"a":1,"b":[1,2,3]}' : i % 4 === 1 ? String(i) : i % 4 === 2 ? 'false' : `值 ${i}`,
        overrides:
          i % 4 === 2
            ? [
                { channels: ['huawei'], minVersionCode: 200, maxVersionCode: 299, percent: 20, value: 'true' },
                { platforms: ['ios'], value: 'true' },
              ]
            : [],
      },
      token,
    );
  }
  const { tag } = await callOk(base, '/api/a11t/fetch', device);
  return { configTag: tag, deviceId };
}
