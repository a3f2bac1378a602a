import type { Kysely } from 'kysely';

/**
 * The `appAccountToken` a StoreKit transaction carries (the app account it was bought for): a
 * transaction with a token some account already holds is granted to that account only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('iap_records').addColumn('app_account_token', 'text').execute();
  await db.schema
    .createIndex('iap_records_account_token')
    .on('iap_records')
    .columns(['platform', 'app_account_token'])
    .execute();
}
