import type { Generated } from 'kysely';

/** payment_notifications: every Alipay / WeChat Pay notification that arrived, and what became of it. */
export interface PaymentNotificationsTable {
  id: Generated<number>;
  method: string;
  order_no: string | null;
  transaction_id: string | null;
  /** Fen, as the platform stated it. */
  amount: number | null;
  status: string;
  reason: string | null;
  /** The notification as received (form fields or the decrypted resource). */
  payload: string | null;
  created_at: number;
}

declare module '../../db/schema' {
  interface Database {
    payment_notifications: PaymentNotificationsTable;
  }
}
