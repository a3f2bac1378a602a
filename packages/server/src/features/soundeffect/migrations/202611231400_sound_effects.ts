import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('sound_effects'), dialect)
    .addColumn('file_id', 'integer', (c) => c.notNull().unique().references('files.id'))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('codec', 'text', (c) => c.notNull())
    .addColumn('sample_rate', 'integer')
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('uploader_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  // One sound per file content: a second upload of the same bytes is answered with the first.
  await db.schema.createIndex('sound_effects_sha256').on('sound_effects').column('sha256').unique().execute();
  await db.schema
    .createIndex('sound_effects_app')
    .on('sound_effects')
    .columns(['enabled', 'category', 'sort', 'id'])
    .execute();
}
