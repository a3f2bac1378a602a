import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('images'), dialect)
    .addColumn('file_id', 'integer', (c) => c.notNull().unique().references('files.id'))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('thumb_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo(','))
    .addColumn('author', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('uploader_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  // What the apps ask: a category's enabled images, newest first or by hand-set order.
  await db.schema.createIndex('images_app_newest').on('images').columns(['enabled', 'category', 'id']).execute();
  await db.schema.createIndex('images_app_sort').on('images').columns(['enabled', 'category', 'sort', 'id']).execute();
  // The operators' list by category.
  await db.schema.createIndex('images_category').on('images').columns(['category', 'id']).execute();
}
