import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/migrations/helpers';

/**
 * In-app messages belong to an app (issue 29): each app's inbox shows its own. The messages sent
 * before apps were data were all 滚动截屏's (`tailor`). The recipient index leads with the app,
 * as every inbox read names one.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('app', 'text', (c) => c.notNull().defaultTo('tailor'))
    .execute();
  await db.schema.dropIndex('messages_recipient').execute();
  await db.schema
    .createIndex('messages_app_recipient')
    .on('messages')
    .columns(['app', 'user_id', 'blocked', 'id'])
    .execute();
}
