import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('client_error_groups'), dialect)
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('release', 'text', (c) => c.notNull())
    .addColumn('frame', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_seen_at', ms(dialect), (c) => c.notNull())
    .addColumn('last_seen_at', ms(dialect), (c) => c.notNull())
    .addColumn('last_path', 'text', (c) => c.notNull())
    .addColumn('resolved_at', ms(dialect))
    .addColumn('resolved_by', 'integer')
    .execute();
  // The list: newest first (and the oldest to drop when the table is full).
  await db.schema
    .createIndex('client_error_groups_seen')
    .on('client_error_groups')
    .columns(['last_seen_at', 'id'])
    .execute();
  await pk(db.schema.createTable('client_error_samples'), dialect)
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('stack', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('repeats', 'integer', (c) => c.notNull())
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('client_error_samples_group')
    .on('client_error_samples')
    .columns(['group_id', 'id'])
    .execute();
}
