import type { Generated } from 'kysely';

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

declare module '../../db/schema' {
  interface Database {
    iap_products: IapProductsTable;
  }
}
