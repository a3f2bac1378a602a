import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const money = dialect === 'postgres' ? 'bigint' : 'integer';
  await pk(db.schema.createTable('iap_products'), dialect)
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price', money, (c) => c.notNull().check(sql`price > 0`))
    .addColumn('vip_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('coins', money, (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .addUniqueConstraint('iap_products_key', ['app', 'platform', 'product_id'])
    .execute();
  await db.schema.createIndex('iap_products_created').on('iap_products').columns(['created_at', 'id']).execute();
}
