import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/**
 * payment_notifications: the Alipay / WeChat Pay notifications that arrived, and what became of
 * them: every verified one, and of those that did not verify a capped few (refusals.ts).
 */
export interface PaymentNotificationsTable {
  id: Generated<number>;
  method: string;
  /** The app whose settings verified it; null when it did not verify (no app is known). */
  app: string | null;
  order_no: string | null;
  transaction_id: string | null;
  /** Fen, as the platform stated it. */
  amount: number | null;
  status: string;
  reason: string | null;
  /** Verified: the notification (form fields or the decrypted resource, JSON); refused: the body's first 1 KB. */
  payload: string | null;
  created_at: number;
}

/** The payment feature's own tables: its database type (PaymentDb) is these and the core ones (db/schema.ts). */
export interface PaymentTables {
  payment_notifications: PaymentNotificationsTable;
}

export type PaymentDb = FeatureDb<PaymentTables>;

declare module '../../db/schema' {
  interface Database extends PaymentTables {}
}
