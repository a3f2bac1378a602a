import { type Kysely, sql } from 'kysely';
import { type Dialect, keepCount, ms, pk } from '../../../db/migrations/helpers';

const statuses = ['pending', 'paid', 'cancelled', 'refunded', 'closed'];

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const money = dialect === 'postgres' ? 'bigint' : 'integer';
  await pk(db.schema.createTable('orders'), dialect)
    .addColumn('order_no', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
    .addColumn('plan_name', 'text', (c) => c.notNull())
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('pay_method', 'text', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('duration_days', 'integer')
    .addColumn('bonus_coins', money, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('expires_at', ms(dialect), (c) => c.notNull())
    .addColumn('paid_at', ms(dialect))
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('orders_status').on('orders').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('orders_pending_expiry').on('orders').columns(['status', 'expires_at']).execute();

  await pk(db.schema.createTable('order_events'), dialect)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'integer')
    .addColumn('note', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_events_order').on('order_events').columns(['order_id', 'id']).execute();
  if (dialect === 'sqlite') {
    for (const operation of ['update', 'delete'] as const) {
      await sql
        .raw(
          `create trigger order_events_no_${operation} before ${operation} on order_events
           begin select raise(abort, 'order_events is append-only'); end`,
        )
        .execute(db);
    }
  } else {
    await sql
      .raw(
        `create trigger order_events_append_only before update or delete on order_events
         for each row execute function appdesk_append_only()`,
      )
      .execute(db);
  }

  // The list's unfiltered and per-status totals, kept by triggers (db/paging.ts keptTotal).
  await keepCount(db, dialect, { name: 'orders', table: 'orders' });
  for (const status of statuses) {
    await keepCount(db, dialect, {
      name: `orders.${status}`,
      table: 'orders',
      where: (row) => `${row}.status = '${status}'`,
      columns: ['status'],
    });
  }
}
