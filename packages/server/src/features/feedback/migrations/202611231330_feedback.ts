import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('feedback'), dialect)
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('contact', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('app_version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device_model', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('os_version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('reply', 'text')
    .addColumn('replied_at', ms(dialect))
    .addColumn('handled_by', 'integer', (c) => c.references('users.id'))
    .addColumn('handled_at', ms(dialect))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  // The operators' list: newest first, by status (the default view is 待处理) and by app.
  await db.schema.createIndex('feedback_status_time').on('feedback').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('feedback_app_time').on('feedback').columns(['app', 'created_at']).execute();
  await db.schema.createIndex('feedback_user').on('feedback').columns(['user_id', 'id']).execute();

  await pk(db.schema.createTable('feedback_images'), dialect)
    .addColumn('feedback_id', 'integer', (c) => c.notNull().references('feedback.id').onDelete('cascade'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id'))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_images_feedback').on('feedback_images').columns(['feedback_id']).execute();
  await db.schema.createIndex('feedback_images_file').on('feedback_images').columns(['file_id']).execute();
}
