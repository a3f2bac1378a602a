import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { IapProductsTable } from './tables';

/* The iap feature's public module: what other features (iaprecord) may read of in-app products. */

export type IapProduct = Selectable<IapProductsTable>;

/** The product a purchase names, on its app and platform: what it grants, and whether it is on sale. */
export function findProduct(
  db: Db,
  key: { app: string; platform: 'ios' | 'android'; productId: string },
): Promise<IapProduct | undefined> {
  return db
    .selectFrom('iap_products')
    .selectAll()
    .where('app', '=', key.app)
    .where('platform', '=', key.platform)
    .where('product_id', '=', key.productId)
    .executeTakeFirst();
}
