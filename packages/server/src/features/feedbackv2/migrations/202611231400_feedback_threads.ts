import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('feedback_threads'), dialect)
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id'))
    .addColumn('app_version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device_model', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('os_version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_post_at', ms(dialect), (c) => c.notNull())
    .addColumn('last_user_post_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_read_post_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admin_read_post_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  // A user's own list, and the operators' list by recent activity.
  await db.schema
    .createIndex('feedback_threads_user')
    .on('feedback_threads')
    .columns(['user_id', 'last_post_at'])
    .execute();
  await db.schema
    .createIndex('feedback_threads_status')
    .on('feedback_threads')
    .columns(['status', 'last_post_at'])
    .execute();

  await pk(db.schema.createTable('feedback_posts'), dialect)
    .addColumn('thread_id', 'integer', (c) => c.notNull().references('feedback_threads.id').onDelete('cascade'))
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('canned_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_posts_thread').on('feedback_posts').columns(['thread_id', 'id']).execute();

  await pk(db.schema.createTable('feedback_post_images'), dialect)
    .addColumn('post_id', 'integer', (c) => c.notNull().references('feedback_posts.id').onDelete('cascade'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id'))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_post_images_post').on('feedback_post_images').columns(['post_id']).execute();
  await db.schema.createIndex('feedback_post_images_file').on('feedback_post_images').columns(['file_id']).execute();

  await pk(db.schema.createTable('feedback_canned'), dialect)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
}
