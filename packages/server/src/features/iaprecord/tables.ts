import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/**
 * iap_records: one receipt an app posted or a notification brought. `transaction_id` is set only
 * for accepted receipts (granted, pending, refunded) and is unique per platform: the grant happens
 * once per store transaction. Rejected receipts keep what they claimed in `claimed_transaction_id`.
 */
export interface IapRecordsTable {
  id: Generated<number>;
  user_id: number | null;
  app: string;
  platform: string;
  product_id: string;
  transaction_id: string | null;
  claimed_transaction_id: string | null;
  original_transaction_id: string | null;
  /** StoreKit's appAccountToken (lower case), set on accepted records: binds it to their account. */
  app_account_token: string | null;
  environment: string | null;
  status: string;
  reason: string | null;
  /** What was granted (copied from the product when granted). */
  vip_days: number;
  coins: number;
  purchased_at: number | null;
  expires_at: number | null;
  refunded_at: number | null;
  /** JSON: the decoded transaction (or what could be read of a rejected one). */
  payload: string | null;
  created_at: number;
  updated_at: number;
}

/** iap_notifications: App Store Server Notifications V2, each applied once (unique notification UUID). */
export interface IapNotificationsTable {
  id: Generated<number>;
  notification_uuid: string | null;
  type: string;
  subtype: string | null;
  transaction_id: string | null;
  status: string;
  reason: string | null;
  payload: string | null;
  created_at: number;
}

/** The iaprecord feature's own tables: its database type (IapRecordDb) is these and the core ones (db/schema.ts). */
export interface IapRecordTables {
  iap_records: IapRecordsTable;
  iap_notifications: IapNotificationsTable;
}

export type IapRecordDb = FeatureDb<IapRecordTables>;

declare module '../../db/schema' {
  interface Database extends IapRecordTables {}
}
