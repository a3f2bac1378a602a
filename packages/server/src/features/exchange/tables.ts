import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** exchange_items: what the coin shop offers. */
export interface ExchangeItemsTable {
  id: Generated<number>;
  /** The app whose shop offers it. */
  app: string;
  name: string;
  image: string;
  description: string;
  kind: string;
  /** VIP days or coins granted; 0 for physical goods and codes. */
  value: number;
  cost_coins: number;
  /** Left in stock; null: unlimited. Code items: the codes not yet handed out. */
  stock: number | null;
  /** 0: no limit. */
  per_user_limit: number;
  starts_at: number | null;
  ends_at: number | null;
  sort: number;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** exchange_codes: the imported codes of a code item; each is handed out once (record_id set). */
export interface ExchangeCodesTable {
  id: Generated<number>;
  item_id: number;
  code: string;
  record_id: number | null;
  created_at: number;
  used_at: number | null;
}

/** exchange_records: one redemption, with what it cost and gave, and its delivery. */
export interface ExchangeRecordsTable {
  id: Generated<number>;
  record_no: string;
  /** The item's app when redeemed. */
  app: string;
  user_id: number;
  item_id: number;
  item_name: string;
  kind: string;
  value: number;
  cost: number;
  status: string;
  code: string | null;
  receiver_name: string | null;
  receiver_phone: string | null;
  address: string | null;
  carrier: string | null;
  tracking_no: string | null;
  note: string | null;
  operator_id: number | null;
  created_at: number;
  updated_at: number;
  shipped_at: number | null;
  cancelled_at: number | null;
}

/** The exchange feature's own tables: its database type (ExchangeDb) is these and the core ones (db/schema.ts). */
export interface ExchangeTables {
  exchange_items: ExchangeItemsTable;
  exchange_codes: ExchangeCodesTable;
  exchange_records: ExchangeRecordsTable;
}

export type ExchangeDb = FeatureDb<ExchangeTables>;

declare module '../../db/schema' {
  interface Database extends ExchangeTables {}
}
