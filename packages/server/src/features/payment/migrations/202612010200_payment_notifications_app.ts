import { DEFAULT_APP } from '@appdesk/contract/constants';
import { type Kysely, sql } from 'kysely';

/**
 * The app whose settings verified a notification (null: it did not verify, so no app is known), for
 * the console's app switcher. Notifications kept before there were several apps verified with the
 * first app's settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_notifications').addColumn('app', 'text').execute();
  await sql`update payment_notifications set app = ${DEFAULT_APP} where status <> 'rejected'`.execute(db);
  await db.schema
    .createIndex('payment_notifications_app')
    .on('payment_notifications')
    .columns(['app', 'created_at', 'id'])
    .execute();
}
