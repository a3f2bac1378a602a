import type { Kysely } from 'kysely';

/** Google Play purchases are looked up by the token the app posted before asking Google again. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('iap_records_claimed')
    .on('iap_records')
    .columns(['platform', 'claimed_transaction_id'])
    .execute();
}
