import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** selfapps: the company's other apps our apps promote. */
export interface SelfappsTable {
  id: Generated<number>;
  name: string;
  icon: string;
  description: string;
  /** Android package id ('' when none). */
  package_id: string;
  android_url: string;
  ios_url: string;
  reward_coins: number;
  sort: number;
  enabled: number;
  /** The app codes that show it, comma-wrapped (`,tailor,`) so one LIKE finds an app. */
  apps: string;
  created_at: number;
  updated_at: number;
}

/** selfapp_records: one show, click or install an app reported (append-only). */
export interface SelfappRecordsTable {
  id: Generated<number>;
  selfapp_id: number;
  action: string;
  /** The reporting (source) app. */
  app: string;
  platform: string;
  channel: string;
  device_id: string;
  user_id: number | null;
  /** Coins this report paid: an install's reward, at most one such row per (selfapp, user). */
  coins: number;
  created_at: number;
}

/** The selfapp feature's own tables: its database type (SelfappDb) is these and the core ones (db/schema.ts). */
export interface SelfappTables {
  selfapps: SelfappsTable;
  selfapp_records: SelfappRecordsTable;
}

export type SelfappDb = FeatureDb<SelfappTables>;

declare module '../../db/schema' {
  interface Database extends SelfappTables {}
}
