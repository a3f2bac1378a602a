import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** orders: one purchase of a plan; amount, days and coins copied from the plan when made. */
export interface OrdersTable {
  id: Generated<number>;
  order_no: string;
  user_id: number;
  plan_id: number;
  plan_name: string;
  app: string;
  channel: string;
  pay_method: string;
  /** Fen. */
  amount: number;
  /** null: lifetime. */
  duration_days: number | null;
  bonus_coins: number;
  status: string;
  transaction_id: string | null;
  created_at: number;
  /** A pending order closes by itself at this time. */
  expires_at: number;
  paid_at: number | null;
  updated_at: number;
}

/** order_events (append-only): the timeline of an order, with who and why. */
export interface OrderEventsTable {
  id: Generated<number>;
  order_id: number;
  kind: string;
  operator_id: number | null;
  note: string | null;
  /** JSON: what was granted or taken back, the external transaction id. */
  detail: string | null;
  created_at: number;
}

/** The order feature's own tables: its database type (OrderDb) is these and the core ones (db/schema.ts). */
export interface OrderTables {
  orders: OrdersTable;
  order_events: OrderEventsTable;
}

export type OrderDb = FeatureDb<OrderTables>;

declare module '../../db/schema' {
  interface Database extends OrderTables {}
}
