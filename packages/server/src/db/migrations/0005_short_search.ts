import { type Kysely, sql } from 'kysely';
import type { Dialect } from './helpers';

/**
 * Search by one or two characters, anywhere in a nickname or phone (trigram indexes need three):
 * an index of the 1- and 2-character pieces of each user's nickname and phone (appdesk_grams of
 * `nickname || ' ' || phone`; pieces never span the space). SQLite: an FTS5 table fed from a view
 * through the function the worker registers, kept by triggers; PostgreSQL: a GIN index on the
 * same pieces as an array.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create view users_grams_source as select id, appdesk_grams(nickname || ' ' || phone) as grams from users`.execute(
      db,
    );
    await sql`create virtual table users_grams using fts5(grams, content='users_grams_source', content_rowid='id',
      tokenize='unicode61 remove_diacritics 0', detail='none')`.execute(db);
    await sql`create trigger users_grams_insert after insert on users begin
      insert into users_grams(rowid, grams) values (new.id, appdesk_grams(new.nickname || ' ' || new.phone));
    end`.execute(db);
    await sql`create trigger users_grams_delete after delete on users begin
      insert into users_grams(users_grams, rowid, grams) values ('delete', old.id, appdesk_grams(old.nickname || ' ' || old.phone));
    end`.execute(db);
    await sql`create trigger users_grams_update after update of nickname, phone on users begin
      insert into users_grams(users_grams, rowid, grams) values ('delete', old.id, appdesk_grams(old.nickname || ' ' || old.phone));
      insert into users_grams(rowid, grams) values (new.id, appdesk_grams(new.nickname || ' ' || new.phone));
    end`.execute(db);
    await sql`insert into users_grams(users_grams) values ('rebuild')`.execute(db);
    return;
  }
  await sql`create function appdesk_grams(t text) returns text[] language sql immutable parallel safe as $$
    select coalesce(array_agg(distinct g), '{}') from (
      select lower(substr(t, i, 1)) as g from generate_series(1, char_length(t)) as i
      union all
      select lower(substr(t, i, 2)) from generate_series(1, char_length(t) - 1) as i
    ) as pieces where g !~ '[[:space:][:punct:]]' $$`.execute(db);
  await sql`create index users_grams on users using gin (appdesk_grams(nickname || ' ' || phone))`.execute(db);
}
