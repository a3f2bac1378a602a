import type { Kysely } from 'kysely';

/** The console's list of one app's receipts (the header's app switcher), newest first, read from an index. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('iap_records_app').on('iap_records').columns(['app', 'created_at', 'id']).execute();
}
