import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from './helpers';

/** Users at scale (list indexes, substring search), the coin ledger, messages, key-values. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // List orderings: each sort column with id as the tie-breaker, per status filter too.
  await db.schema.createIndex('users_created').on('users').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('users_active').on('users').columns(['last_active_at', 'id']).execute();
  await db.schema.createIndex('users_coins').on('users').columns(['coins', 'id']).execute();
  await db.schema.createIndex('users_status_created').on('users').columns(['status', 'created_at', 'id']).execute();

  // Substring search on phone and nickname without scanning the table.
  if (dialect === 'sqlite') {
    await sql`create virtual table users_search using fts5(phone, nickname, content='users', content_rowid='id', tokenize='trigram')`.execute(
      db,
    );
    await sql`create trigger users_search_insert after insert on users begin
      insert into users_search(rowid, phone, nickname) values (new.id, new.phone, new.nickname);
    end`.execute(db);
    await sql`create trigger users_search_delete after delete on users begin
      insert into users_search(users_search, rowid, phone, nickname) values ('delete', old.id, old.phone, old.nickname);
    end`.execute(db);
    await sql`create trigger users_search_update after update of phone, nickname on users begin
      insert into users_search(users_search, rowid, phone, nickname) values ('delete', old.id, old.phone, old.nickname);
      insert into users_search(rowid, phone, nickname) values (new.id, new.phone, new.nickname);
    end`.execute(db);
    await sql`insert into users_search(users_search) values ('rebuild')`.execute(db);
  } else {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`create index users_phone_trgm on users using gin (phone public.gin_trgm_ops)`.execute(db);
    await sql`create index users_nickname_trgm on users using gin (nickname public.gin_trgm_ops)`.execute(db);
  }

  await pk(db.schema.createTable('coin_records'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ref_type', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('operator_id', 'integer')
    .addColumn('note', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('coin_records_user').on('coin_records').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('coin_records_created').on('coin_records').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('coin_records_reason').on('coin_records').columns(['reason', 'id']).execute();
  // One grant per business event: the same reference can never be paid twice.
  await db.schema
    .createIndex('coin_records_ref')
    .on('coin_records')
    .columns(['reason', 'ref_type', 'ref_id'])
    .unique()
    .where(sql.ref('ref_id'), 'is not', null)
    .execute();

  await pk(db.schema.createTable('messages'), dialect)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('author_id', 'integer')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_recipient').on('messages').columns(['user_id', 'blocked', 'id']).execute();

  await db.schema
    .createTable('message_reads')
    .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', ms(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('message_reads_pk', ['user_id', 'message_id'])
    .execute();
  await db.schema.createIndex('message_reads_message').on('message_reads').column('message_id').execute();

  await pk(db.schema.createTable('key_values'), dialect)
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .addUniqueConstraint('key_values_app_key', ['app', 'key'])
    .execute();
}
