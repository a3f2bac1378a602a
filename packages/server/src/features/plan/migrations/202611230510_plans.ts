import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const money = dialect === 'postgres' ? 'bigint' : 'integer';
  await pk(db.schema.createTable('plans'), dialect)
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price', money, (c) => c.notNull())
    .addColumn('original_price', money, (c) => c.notNull().defaultTo(0))
    .addColumn('duration_days', 'integer')
    .addColumn('bonus_coins', money, (c) => c.notNull().defaultTo(0))
    .addColumn('ios_product_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('android_product_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('on_sale', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('badge', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plans_sale').on('plans').columns(['app', 'on_sale', 'sort', 'id']).execute();
}
