import type { FeatureDb } from '../../db/index';

/** stat_counts: the dashboard's counters, kept by triggers in the transactions that change the rows. */
export interface StatCountsTable {
  /** What is counted and at which grain: `signups.h` (per hour), `revenue.d` (per day in Shanghai), … */
  metric: string;
  /** Hours since the epoch (`.h`), or days since the epoch in Shanghai time (`.d`). */
  bucket: number;
  /** A breakdown: the channel, the exchange item's id; '' when none. */
  dim: string;
  value: number;
}

/** stat_snapshots: the last value of a state figure (pending work, active VIPs) recorded on each day. */
export interface StatSnapshotsTable {
  name: string;
  day: number;
  value: number;
  updated_at: number;
}

/** The dashboard feature's own tables: its database type (DashboardDb) is these and the core ones (db/schema.ts). */
export interface DashboardTables {
  stat_counts: StatCountsTable;
  stat_snapshots: StatSnapshotsTable;
}

export type DashboardDb = FeatureDb<DashboardTables>;

declare module '../../db/schema' {
  interface Database extends DashboardTables {}
}
