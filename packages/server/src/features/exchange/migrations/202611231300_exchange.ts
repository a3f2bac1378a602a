import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  await pk(db.schema.createTable('exchange_items'), dialect)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', big, (c) => c.notNull())
    .addColumn('cost_coins', big, (c) => c.notNull().check(sql`cost_coins > 0`))
    .addColumn('stock', 'integer', (c) => c.check(sql`stock >= 0`))
    .addColumn('per_user_limit', 'integer', (c) => c.notNull())
    .addColumn('starts_at', ms(dialect))
    .addColumn('ends_at', ms(dialect))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('exchange_items_sort').on('exchange_items').columns(['enabled', 'sort', 'id']).execute();

  await pk(db.schema.createTable('exchange_records'), dialect)
    .addColumn('record_no', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('item_id', 'integer', (c) => c.notNull().references('exchange_items.id'))
    .addColumn('item_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', big, (c) => c.notNull())
    .addColumn('cost', big, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('receiver_name', 'text')
    .addColumn('receiver_phone', 'text')
    .addColumn('address', 'text')
    .addColumn('carrier', 'text')
    .addColumn('tracking_no', 'text')
    .addColumn('note', 'text')
    .addColumn('operator_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .addColumn('shipped_at', ms(dialect))
    .addColumn('cancelled_at', ms(dialect))
    .execute();
  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('exchange_records').columns(columns).execute();
  await index('exchange_records_created', ['created_at', 'id']);
  await index('exchange_records_status', ['status', 'created_at', 'id']);
  await index('exchange_records_item', ['item_id', 'created_at', 'id']);
  await index('exchange_records_kind', ['kind', 'created_at', 'id']);
  // The per-user limit counts a user's redemptions of one item.
  await index('exchange_records_user_item', ['user_id', 'item_id', 'status']);
  await index('exchange_records_user', ['user_id', 'id']);

  await pk(db.schema.createTable('exchange_codes'), dialect)
    .addColumn('item_id', 'integer', (c) => c.notNull().references('exchange_items.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.references('exchange_records.id'))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('used_at', ms(dialect))
    .execute();
  await db.schema
    .createIndex('exchange_codes_unique')
    .on('exchange_codes')
    .columns(['item_id', 'code'])
    .unique()
    .execute();
  // A code is handed out at most once, and the next free one is found from this index alone.
  await db.schema
    .createIndex('exchange_codes_record')
    .on('exchange_codes')
    .column('record_id')
    .unique()
    .where(sql.ref('record_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('exchange_codes_free')
    .on('exchange_codes')
    .columns(['item_id', 'id'])
    .where(sql.ref('record_id'), 'is', null)
    .execute();
}
