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

/** The vip feature's own tables: its database type (VipDb) is these and the core ones (db/schema.ts). */
export interface VipTables {
  vip_records: VipRecordsTable;
}

export type VipDb = FeatureDb<VipTables>;

declare module '../../db/schema' {
  interface Database extends VipTables {}
}
