import { DEFAULT_APP } from '@appdesk/contract/constants';
import { type Kysely, sql } from 'kysely';
import { type Dialect, ms } from '../../../db/migrations/helpers';

/**
 * VIP becomes per app (issue 29): one expiry per (user, app) in vip_entitlements, and every VIP
 * record names its app. Today's expiries (users.vip_expires_at) and records move under the
 * default app. users.vip_expires_at stays in the table only as what this migration read: no code
 * reads it any more (it left the Database type), and the bench seed and older backups still
 * write it; its index goes, as nothing asks it.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('vip_entitlements')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('expires_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('vip_entitlements_pk', ['user_id', 'app'])
    .execute();
  // The dashboard's and the users list's "VIP now" per app, and across apps.
  await db.schema.createIndex('vip_entitlements_app').on('vip_entitlements').columns(['app', 'expires_at']).execute();
  await db.schema
    .createIndex('vip_entitlements_expires')
    .on('vip_entitlements')
    .columns(['expires_at', 'user_id'])
    .execute();
  await sql`insert into vip_entitlements (user_id, app, expires_at, updated_at)
    select id, ${DEFAULT_APP}, vip_expires_at, updated_at from users where vip_expires_at is not null`.execute(db);
  await sql`drop index if exists users_vip_expires`.execute(db);

  // Append-only rows cannot be updated: the column's default gives the existing ones their app.
  await db.schema
    .alterTable('vip_records')
    .addColumn('app', 'text', (c) => c.notNull().defaultTo(DEFAULT_APP))
    .execute();
  if (dialect === 'postgres') {
    // New rows always name their app; PostgreSQL keeps the existing rows' value.
    await sql`alter table vip_records alter column app drop default`.execute(db);
  }
  await db.schema.createIndex('vip_records_app').on('vip_records').columns(['app', 'id']).execute();
}
