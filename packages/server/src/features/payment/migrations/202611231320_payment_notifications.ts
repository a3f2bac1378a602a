import type { Kysely } from 'kysely';
import { type Dialect, keepCount, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('payment_notifications'), dialect)
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('order_no', 'text')
    .addColumn('transaction_id', 'text')
    .addColumn('amount', dialect === 'postgres' ? 'bigint' : 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('payload', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_notifications_created')
    .on('payment_notifications')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payment_notifications_order')
    .on('payment_notifications')
    .columns(['order_no', 'id'])
    .execute();
  await keepCount(db, dialect, { name: 'payment_notifications', table: 'payment_notifications' });
}
