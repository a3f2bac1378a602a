import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  await pk(db.schema.createTable('selfapps'), dialect)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('android_url', 'text', (c) => c.notNull())
    .addColumn('ios_url', 'text', (c) => c.notNull())
    .addColumn('reward_coins', big, (c) => c.notNull().check(sql`reward_coins >= 0`))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('apps', 'text', (c) => c.notNull())
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('selfapps_sort').on('selfapps').columns(['enabled', 'sort', 'id']).execute();

  // No foreign key to selfapps: a deleted promoted app keeps its records and the rewards it paid.
  await pk(db.schema.createTable('selfapp_records'), dialect)
    .addColumn('selfapp_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('coins', big, (c) => c.notNull().check(sql`coins >= 0`))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('selfapp_records').columns(columns).execute();
  await index('selfapp_records_created', ['created_at', 'id']);
  await index('selfapp_records_selfapp', ['selfapp_id', 'created_at', 'id']);
  await index('selfapp_records_action', ['action', 'created_at', 'id']);
  // The install reward is paid once per user and promoted app: the second paid row cannot exist.
  await db.schema
    .createIndex('selfapp_records_reward')
    .on('selfapp_records')
    .columns(['selfapp_id', 'user_id'])
    .unique()
    .where(sql.ref('coins'), '>', sql.lit(0))
    .execute();
}
