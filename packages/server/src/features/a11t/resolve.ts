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
 * An app's entries, read once per change. A process answers from its copy for up to RECHECK_MS,
 * then asks the database for the app's newest revision id (one indexed lookup) and reads the pairs
 * again only when it moved. Its own writes drop the copy at once (forgetEntries); another
 * process's writes show within RECHECK_MS.
 */
const RECHECK_MS = 1000;
type Cached = { revision: number; entries: Entry[]; checkedAt: number };
const cache = new WeakMap<object, Map<string, Cached>>();

/** Drops what this server keeps of the apps' pairs (after a change). */
export function forgetEntries(owner: object): void {
  cache.delete(owner);
}

export async function appEntries(db: Db, owner: object, app: string): Promise<{ revision: number; entries: Entry[] }> {
  let byApp = cache.get(owner);
  if (!byApp) {
    byApp = new Map();
    cache.set(owner, byApp);
  }
  const cached = byApp.get(app);
  const now = Date.now();
  if (cached && now - cached.checkedAt < RECHECK_MS) return cached;
  const { rows } = await sql<{
    id: number | null;
  }>`select max(id) as id from key_value_revisions where app = ${app}`.execute(db);
  const revision = Number(rows[0]?.id ?? 0);
  if (cached && cached.revision === revision) {
    cached.checkedAt = now;
    return cached;
  }
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
  const fresh = { revision, entries, checkedAt: now };
  byApp.set(app, fresh);
  return fresh;
}

/** Every pair of the app resolved for the device, and a tag of exactly that answer (and of the app's revision). */
export async function resolveFor(db: Db, owner: object, app: string, device: Device) {
  const { revision, entries } = await appEntries(db, owner, app);
  const values: Record<string, unknown> = {};
  for (const entry of entries) values[entry.key] = resolveEntry(entry, device);
  const tag = createHash('sha256')
    .update(`${revision}\u0000${JSON.stringify(values)}`)
    .digest('base64url')
    .slice(0, 22);
  return { tag, values };
}
