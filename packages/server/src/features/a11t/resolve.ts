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
  /** The default and each override's value, typed once when the pairs are read (null if unreadable). */
  typed: unknown;
  typedOverrides: unknown[];
}

/** Whether an override's condition holds for the device (the share: a hash of device id and key). */
export function matches(override: ConfigOverride, key: string, device: Device): boolean {
  if (override.channels.length && !override.channels.includes(device.channel as never)) return false;
  if (override.platforms.length && !override.platforms.includes(device.platform as never)) return false;
  if (override.minVersionCode !== null && device.versionCode < override.minVersionCode) return false;
  if (override.maxVersionCode !== null && device.versionCode > override.maxVersionCode) return false;
  return inRollout(device.deviceId, `config:${key}`, override.percent);
}

/** Which value of a key the device gets: the index of the first matching override, or -1 for the default. */
const choiceOf = (entry: Entry, device: Device): number =>
  entry.overrides.findIndex((o) => matches(o, entry.key, device));

const typedValue = (type: ConfigType, raw: string): unknown => {
  const parsed = parseConfigValue(type, raw);
  return parsed.ok ? parsed.value : null;
};

/**
 * An app's entries, read once per change. A process answers from its copy for up to RECHECK_MS,
 * then asks the database for the app's newest revision id (one indexed lookup) and reads the pairs
 * again only when it moved. Its own writes drop the copy at once (forgetEntries); another
 * process's writes show within RECHECK_MS: half a second, so that with the request's own time a
 * change is seen on every instance in under one (test/instances.test.ts measures it).
 */
const RECHECK_MS = 500;
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
  const entries = found.map((r) => {
    const type = r.type as ConfigType;
    const overrides = JSON.parse(r.overrides) as ConfigOverride[];
    return {
      key: r.key,
      type,
      value: r.value,
      overrides,
      typed: typedValue(type, r.value),
      typedOverrides: overrides.map((o) => typedValue(type, o.value)),
    };
  });
  const fresh = { revision, entries, checkedAt: now };
  byApp.set(app, fresh);
  return fresh;
}

/**
 * Every pair of the app resolved for the device, and a tag of exactly that answer: the values are
 * a function of the app's revision and which value of each key the device gets, so the tag is a
 * hash of those and the values are only built when the app does not already hold them.
 */
export async function resolveFor(db: Db, owner: object, app: string, device: Device) {
  const { revision, entries } = await appEntries(db, owner, app);
  const choices = entries.map((entry) => choiceOf(entry, device));
  const tag = createHash('sha256')
    .update(`${revision}\u0000${choices.join(',')}`)
    .digest('base64url')
    .slice(0, 22);
  const values = () => {
    const resolved: Record<string, unknown> = {};
    entries.forEach((entry, i) => {
      resolved[entry.key] = choices[i] < 0 ? entry.typed : entry.typedOverrides[choices[i]];
    });
    return resolved;
  };
  return { tag, values };
}
