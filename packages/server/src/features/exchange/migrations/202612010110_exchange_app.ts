import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/migrations/helpers';

/**
 * Exchange items belong to an app (issue 29), and a redemption keeps its item's app (as it keeps
 * its name), so the records list filters by app without a join. Coins stay company-wide. Every
 * item and record from before apps were data is 滚动截屏's (`tailor`).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  for (const table of ['exchange_items', 'exchange_records']) {
    await db.schema
      .alterTable(table)
      .addColumn('app', 'text', (c) => c.notNull().defaultTo('tailor'))
      .execute();
  }
  // The app's shop reads its enabled items in order.
  await db.schema.dropIndex('exchange_items_sort').execute();
  await db.schema
    .createIndex('exchange_items_app_sort')
    .on('exchange_items')
    .columns(['app', 'enabled', 'sort', 'id'])
    .execute();
  await db.schema
    .createIndex('exchange_records_app')
    .on('exchange_records')
    .columns(['app', 'created_at', 'id'])
    .execute();
}
