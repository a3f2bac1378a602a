import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** iap_products: what a store product grants; (app, platform, product_id) is unique. Money in fen. */
export interface IapProductsTable {
  id: Generated<number>;
  app: string;
  platform: string;
  product_id: string;
  type: string;
  name: string;
  price: number;
  vip_days: number;
  coins: number;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** The iap feature's own tables: its database type (IapDb) is these and the core ones (db/schema.ts). */
export interface IapTables {
  iap_products: IapProductsTable;
}

export type IapDb = FeatureDb<IapTables>;

declare module '../../db/schema' {
  interface Database extends IapTables {}
}
