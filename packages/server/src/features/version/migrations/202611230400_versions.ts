import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('versions'), dialect)
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('version_name', 'text', (c) => c.notNull())
    .addColumn('version_code', 'integer', (c) => c.notNull())
    .addColumn('min_version_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('changelog', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('package_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('size', ms(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('md5', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sha256', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('store_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('rollout', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('prompt_times', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('prompt_interval_days', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ignorable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('review_hold', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', ms(dialect))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .addUniqueConstraint('versions_release', ['app', 'platform', 'channel', 'version_code'])
    .execute();
  // What the update check asks: one channel's published releases above the app's own code.
  await db.schema
    .createIndex('versions_latest')
    .on('versions')
    .columns(['app', 'platform', 'channel', 'status', 'version_code'])
    .execute();
  await db.schema.createIndex('versions_file').on('versions').column('file_id').execute();

  await db.schema
    .createTable('version_stats')
    .addColumn('version_id', 'integer', (c) => c.notNull().references('versions.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('checks', ms(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('prompts', ms(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('downloads', ms(dialect), (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('version_stats_pk', ['version_id', 'channel', 'day'])
    .execute();
}
