import { type Kysely, sql } from 'kysely';
import { type Dialect, keepCount, ms, pk } from '../../../db/migrations/helpers';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('review_rewards'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('screenshot', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('coins', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('reviewer_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .addColumn('reviewed_at', ms(dialect))
    .execute();
  await db.schema.createIndex('review_rewards_created').on('review_rewards').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('review_rewards_status')
    .on('review_rewards')
    .columns(['status', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('review_rewards_user').on('review_rewards').columns(['user_id', 'id']).execute();
  // One approved claim per user, app and store, whatever races happen.
  await db.schema
    .createIndex('review_rewards_one_approved')
    .on('review_rewards')
    .columns(['user_id', 'app', 'store'])
    .unique()
    .where(sql.ref('status'), '=', 'approved')
    .execute();
  await keepCount(db, dialect, {
    name: 'review_rewards.pending',
    table: 'review_rewards',
    where: (row) => `${row}.status = 'pending'`,
    columns: ['status'],
  });

  await db.schema
    .createTable('review_reward_settings')
    .addColumn('app', 'text', (c) => c.primaryKey())
    .addColumn('coins', 'integer', (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
}
