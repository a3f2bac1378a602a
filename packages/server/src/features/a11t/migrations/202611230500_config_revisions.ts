import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

/**
 * Remote config: key_values gains a type, conditional overrides and a revision number, and every
 * change is a row of key_value_revisions, which the database keeps append-only (as the ledger).
 * Existing pairs (signup_coins…) become revision 1, typed by what their value looks like.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('key_values')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('string'))
    .execute();
  await db.schema
    .alterTable('key_values')
    .addColumn('overrides', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('key_values')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('key_values').addColumn('updated_by', 'integer').execute();
  const numeric =
    dialect === 'postgres'
      ? sql`value ~ '^-?[0-9]+(\\.[0-9]+)?$'`
      : sql`value glob '[0-9]*' and value not glob '*[^0-9.]*'`;
  await sql`update key_values set type = 'number' where ${numeric}`.execute(db);
  await sql`update key_values set type = 'boolean' where value in ('true', 'false')`.execute(db);

  await pk(db.schema.createTable('key_value_revisions'), dialect)
    .addColumn('key_value_id', 'integer', (c) => c.notNull())
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('rolled_back_to', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('overrides', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addUniqueConstraint('key_value_revisions_number', ['key_value_id', 'revision'])
    .execute();
  // The apps' call asks for the newest revision of an app on every request.
  await db.schema.createIndex('key_value_revisions_app').on('key_value_revisions').columns(['app', 'id']).execute();
  await sql`insert into key_value_revisions (key_value_id, app, key, revision, action, type, value, overrides, description, created_at)
    select id, app, key, 1, 'make', type, value, overrides, description, updated_at from key_values`.execute(db);

  if (dialect === 'sqlite') {
    for (const operation of ['update', 'delete'] as const) {
      await sql
        .raw(
          `create trigger key_value_revisions_no_${operation} before ${operation} on key_value_revisions
           begin select raise(abort, 'key_value_revisions is append-only'); end`,
        )
        .execute(db);
    }
    return;
  }
  // appdesk_append_only() comes from migration 0003 (the audit log and the ledger use it too).
  await sql`create trigger key_value_revisions_append_only before update or delete on key_value_revisions
    for each row execute function appdesk_append_only()`.execute(db);
}
