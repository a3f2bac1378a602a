import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('help_articles'), dialect)
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  // What the apps ask: one app's published articles, by category and hand-set order.
  await db.schema
    .createIndex('help_articles_published')
    .on('help_articles')
    .columns(['app', 'published', 'category', 'sort', 'id'])
    .execute();
}
