import { createHash } from 'node:crypto';
import type { ConfigOverride } from '@appdesk/contract/endpoints/a11t';
import { inRollout } from '@appdesk/contract/rollout';
import { parseConfigValue } from '@appdesk/contract/rules';
import { sql } from 'kysely';
import type { Db } from '../../db/index';

export type ConfigType = 'string' | 'number' | 'boolean' | 'json';

/** A device as the apps describe it. */
export interface Device {
  platform: string;
  channel: string;
  versionCode: number;
  deviceId: string;
}

interface Entry {
  key: string;
  type: ConfigType;
  value: string;
  overrides: ConfigOverride[];
}

/** Whether an override's condition holds for the device (the share: a hash of device id and key). */
export function matches(override: ConfigOverride, key: string, device: Device): boolean {
  if (override.channels.length && !override.channels.includes(device.channel as never)) return false;
  if (override.platforms.length && !override.platforms.includes(device.platform as never)) return false;
  if (override.minVersionCode !== null && device.versionCode < override.minVersionCode) return false;
  if (override.maxVersionCode !== null && device.versionCode > override.maxVersionCode) return false;
  return inRollout(device.deviceId, `config:${key}`, override.percent);
}

/** The typed value of one key for the device: the first matching override, else the default. */
export function resolveEntry(entry: Entry, device: Device): unknown {
  const raw = entry.overrides.find((o) => matches(o, entry.key, device))?.value ?? entry.value;
  const parsed = parseConfigValue(entry.type, raw);
  return parsed.ok ? parsed.value : null;
}

/**
 * An app's entries, read once per change: the newest revision id of the app decides whether the
 * cached copy is current (one indexed lookup per call instead of reading every pair).
 */
const cache = new WeakMap<Db, Map<string, { revision: number; entries: Entry[] }>>();

export async function appEntries(db: Db, app: string): Promise<{ revision: number; entries: Entry[] }> {
  const { rows } = await sql<{
    id: number | null;
  }>`select max(id) as id from key_value_revisions where app = ${app}`.execute(db);
  const revision = Number(rows[0]?.id ?? 0);
  let byApp = cache.get(db);
  if (!byApp) {
    byApp = new Map();
    cache.set(db, byApp);
  }
  const cached = byApp.get(app);
  if (cached && cached.revision === revision) return cached;
  const found = await db
    .selectFrom('key_values')
    .select(['key', 'type', 'value', 'overrides'])
    .where('app', '=', app)
    .orderBy('key')
    .execute();
  const entries = found.map((r) => ({
    key: r.key,
    type: r.type as ConfigType,
    value: r.value,
    overrides: JSON.parse(r.overrides) as ConfigOverride[],
  }));
  const fresh = { revision, entries };
  byApp.set(app, fresh);
  return fresh;
}

/** Every pair of the app resolved for the device, and a tag of exactly that answer (and of the app's revision). */
export async function resolveFor(db: Db, app: string, device: Device) {
  const { revision, entries } = await appEntries(db, app);
  const values: Record<string, unknown> = {};
  for (const entry of entries) values[entry.key] = resolveEntry(entry, device);
  const tag = createHash('sha256')
    .update(`${revision}\u0000${JSON.stringify(values)}`)
    .digest('base64url')
    .slice(0, 22);
  return { tag, values };
}
