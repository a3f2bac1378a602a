import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from './helpers';

/** The spine: site configuration, accounts, sessions, login throttle, audit log, files. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('allocation')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('logo', 'text')
    .addColumn('service', 'text')
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('qq', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('slogen', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('about', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_init', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  const now = Date.now();
  await sql`insert into allocation (id, title, is_init, created_at, updated_at) values (1, '', 0, ${now}, ${now})`.execute(
    db,
  );

  await pk(db.schema.createTable('users'), dialect)
    .addColumn('phone', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'text')
    .addColumn('email', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('normal'))
    .addColumn('coins', 'integer', (c) => c.notNull().defaultTo(0).check(sql`coins >= 0`))
    .addColumn('vip_expires_at', ms(dialect))
    .addColumn('app', 'text')
    .addColumn('channel', 'text')
    .addColumn('last_login_at', ms(dialect))
    .addColumn('last_active_at', ms(dialect))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_is_admin').on('users').column('is_admin').execute();

  await pk(db.schema.createTable('sessions'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('last_used_at', ms(dialect), (c) => c.notNull())
    .addColumn('expires_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', ms(dialect), (c) => c.notNull())
    .addColumn('locked_until', ms(dialect))
    .execute();

  await pk(db.schema.createTable('audit_log'), dialect)
    .addColumn('actor_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_at').on('audit_log').column('created_at').execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'created_at']).execute();

  await pk(db.schema.createTable('files'), dialect)
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', ms(dialect), (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('uploader_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();

  await pk(db.schema.createTable('email_tokens'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', ms(dialect), (c) => c.notNull())
    .addColumn('used_at', ms(dialect))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
}
