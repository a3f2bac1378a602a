import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** plans: VIP plans per app; money in integer fen (64-bit on PostgreSQL). */
export interface PlansTable {
  id: Generated<number>;
  app: string;
  name: string;
  description: string;
  price: number;
  original_price: number;
  /** null: lifetime. */
  duration_days: number | null;
  bonus_coins: number;
  ios_product_id: string;
  android_product_id: string;
  sort: number;
  on_sale: number;
  badge: string;
  created_at: number;
  updated_at: number;
}

/** The plan feature's own tables: its database type (PlanDb) is these and the core ones (db/schema.ts). */
export interface PlanTables {
  plans: PlansTable;
}

export type PlanDb = FeatureDb<PlanTables>;

declare module '../../db/schema' {
  interface Database extends PlanTables {}
}
