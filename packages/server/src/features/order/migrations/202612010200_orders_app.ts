import type { Kysely } from 'kysely';

/** The console's list of one app's orders (the header's app switcher), newest first, read from an index. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('orders_app').on('orders').columns(['app', 'created_at', 'id']).execute();
}
