import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** versions: one release of an app on one platform and channel (unique by version code there). */
export interface VersionsTable {
  id: Generated<number>;
  app: string;
  platform: string;
  channel: string;
  version_name: string;
  version_code: number;
  /** Below it the update is forced. */
  min_version_code: number;
  changelog: string;
  /** The package in `files` (null: the store URL alone). */
  file_id: number | null;
  package_name: string;
  size: number;
  md5: string;
  sha256: string;
  store_url: string;
  status: 'draft' | 'published' | 'paused' | 'rolledback';
  /** Share of devices (1–100 %) offered it, by a stable hash of device id and release. */
  rollout: number;
  prompt_times: number;
  prompt_interval_days: number;
  ignorable: number;
  review_hold: number;
  published_at: number | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** version_stats: per release, channel and day (Asia/Shanghai) counts reported by the apps. */
export interface VersionStatsTable {
  version_id: number;
  channel: string;
  day: string;
  checks: number;
  prompts: number;
  downloads: number;
}

/** The version feature's own tables: its database type (VersionDb) is these and the core ones (db/schema.ts). */
export interface VersionTables {
  versions: VersionsTable;
  version_stats: VersionStatsTable;
}

export type VersionDb = FeatureDb<VersionTables>;

declare module '../../db/schema' {
  interface Database extends VersionTables {}
}
