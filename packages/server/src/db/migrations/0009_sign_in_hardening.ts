import type { Kysely } from 'kysely';
import { type Dialect, keepCount, ms, pk } from './helpers';

/**
 * Issue 7, sign-in: accounts that must change a password someone else chose (generated accounts,
 * operator resets), and the 登录日志: one row per sign-in attempt, success or not.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await pk(db.schema.createTable('login_log'), dialect)
    .addColumn('user_id', 'integer')
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('code', 'integer', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  // The admin list: newest first, optionally one phone or one result.
  await db.schema.createIndex('login_log_phone').on('login_log').columns(['phone', 'id']).execute();
  await db.schema.createIndex('login_log_success').on('login_log').columns(['success', 'id']).execute();
  await keepCount(db, dialect, { name: 'login_log', table: 'login_log' });
}
