import { DEFAULT_APP } from '@appdesk/contract/constants';
import { call, callOk } from './api';
import { benchApps } from './apps';

/** The bench's apps this server knows: a release from before issue 29 knows the first one only. */
export async function appsOf(base: string): Promise<string[]> {
  const known: string[] = [];
  for (const app of benchApps) {
    const answer = await call(base, '/api/a11t/fetch', {
      app,
      platform: 'android',
      channel: 'huawei',
      versionCode: 250,
      deviceId: 'bench-device-probe',
    });
    if (answer.code === 200) known.push(app);
  }
  return known;
}

/**
 * What the app-facing scenarios need on each server (SQLite and PostgreSQL alike), made through the
 * API as an operator would: releases 1.0.0 to 3.0.0 on a few channels (the newest at a 30 %
 * rollout), and twenty config keys, some with overrides, the same for each of `apps` (two apps'
 * data: the first app's calls then read tables that hold the other's rows too). Answers the config
 * tag of the device the "unchanged" scenario asks as (in the first app).
 */
export async function prepareAppData(
  base: string,
  token: string,
  apps: readonly string[] = [DEFAULT_APP],
  log: (line: string) => void = console.log,
): Promise<{ configTag: string; deviceId: string }> {
  const deviceId = 'bench-device-unchanged';
  const device = { app: DEFAULT_APP, platform: 'android', channel: 'huawei', versionCode: 250, deviceId } as const;
  for (const app of apps) await prepareOneApp(base, token, app, deviceId, log);
  const { tag } = await callOk(base, '/api/a11t/fetch', device);
  return { configTag: tag, deviceId };
}

async function prepareOneApp(
  base: string,
  token: string,
  app: string,
  deviceId: string,
  log: (line: string) => void,
): Promise<void> {
  const device = { app, platform: 'android', channel: 'huawei', versionCode: 250, deviceId } as const;
  // A database kept from an earlier run (--from-postgres) has them already.
  const before = await callOk(base, '/api/a11t/fetch', device);
  if (before.values && 'bench.key_0' in before.values) return;
  releases: for (const channel of ['huawei', 'xiaomi', 'oppo', 'vivo'] as const) {
    for (const [name, code, rollout] of [
      ['1.0.0', 100, 100],
      ['1.5.0', 150, 100],
      ['2.0.0', 200, 100],
      ['3.0.0', 300, 30],
    ] as const) {
      const made = await call(
        base,
        '/api/version/make',
        {
          app,
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
      if (made.code === 200) continue;
      // The first app's releases are the scenarios' data; another app's only fill the table, and a
      // build whose releases are not per app yet cannot make them: said, not fatal.
      if (app === DEFAULT_APP) throw new Error(`/api/version/make: ${made.code} ${made.message}`);
      log(`  ${app}: no releases (/api/version/make answered ${made.code} ${made.message})`);
      break releases;
    }
  }
  for (let i = 0; i < 20; i += 1) {
    await callOk(
      base,
      '/api/a11t/make',
      {
        app,
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
}
