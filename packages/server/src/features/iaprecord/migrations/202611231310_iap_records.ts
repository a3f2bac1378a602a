import type { Kysely } from 'kysely';
import { type Dialect, keepCount, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const money = dialect === 'postgres' ? 'bigint' : 'integer';
  await pk(db.schema.createTable('iap_records'), dialect)
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text')
    .addColumn('claimed_transaction_id', 'text')
    .addColumn('original_transaction_id', 'text')
    .addColumn('environment', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('vip_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('coins', money, (c) => c.notNull().defaultTo(0))
    .addColumn('purchased_at', ms(dialect))
    .addColumn('expires_at', ms(dialect))
    .addColumn('refunded_at', ms(dialect))
    .addColumn('payload', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('iap_records_transaction')
    .on('iap_records')
    .columns(['platform', 'transaction_id'])
    .unique()
    .execute();
  await db.schema.createIndex('iap_records_created').on('iap_records').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('iap_records_status').on('iap_records').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('iap_records_user').on('iap_records').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('iap_records_original').on('iap_records').columns(['original_transaction_id']).execute();

  await pk(db.schema.createTable('iap_notifications'), dialect)
    .addColumn('notification_uuid', 'text', (c) => c.unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text')
    .addColumn('transaction_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('payload', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('iap_notifications_transaction')
    .on('iap_notifications')
    .columns(['transaction_id'])
    .execute();
  await keepCount(db, dialect, { name: 'iap_records', table: 'iap_records' });
}
