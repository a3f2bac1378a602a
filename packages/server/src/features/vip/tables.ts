import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/**
 * vip_records (append-only): every change of a user's VIP expiry, with the expiry before and
 * after, why (reason), the business record behind it (ref_type, ref_id) and who did it.
 * Written only by changeVip (ledger.ts), which other features reach through public.ts.
 */
export interface VipRecordsTable {
  id: Generated<number>;
  user_id: number;
  /** The app whose VIP changed (VIP is per app; the records before it moved under DEFAULT_APP). */
  app: string;
  /** Days asked for (negative: taken back); null for a lifetime grant. */
  days: number | null;
  before_expires_at: number | null;
  after_expires_at: number | null;
  reason: string;
  ref_type: string | null;
  ref_id: string | null;
  operator_id: number | null;
  note: string | null;
  created_at: number;
}

/**
 * vip_entitlements: a user's VIP expiry in one app, one row per (user, app) that ever had VIP time.
 * VIP is per app (a user may be VIP in 滚动截屏 and not in 名言); accounts and coins are company-wide.
 * Written only by changeVip, in the same transaction as its vip_records row.
 */
export interface VipEntitlementsTable {
  user_id: number;
  app: string;
  expires_at: number;
  updated_at: number;
}

/** The vip feature's own tables: its database type (VipDb) is these and the core ones (db/schema.ts). */
export interface VipTables {
  vip_records: VipRecordsTable;
  vip_entitlements: VipEntitlementsTable;
}

export type VipDb = FeatureDb<VipTables>;

declare module '../../db/schema' {
  interface Database extends VipTables {}
}
