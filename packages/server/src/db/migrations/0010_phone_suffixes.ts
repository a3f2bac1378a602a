import { type Kysely, sql } from 'kysely';
import type { Dialect } from './helpers';

/** Suffixes this short are not kept: a search of one or two digits uses the short-search index (0005, 0008). */
const SHORTEST = 3;
/** Longest phone whose every suffix is kept (phones are 11 digits, `phonePattern`; room to spare). */
const LONGEST_PHONE = 32;

/**
 * Searching phones by three digits or more, in time bound by the matches (issue 14): a B-tree of
 * every suffix of every phone (3 characters or longer) with its user. Digits q are in a phone
 * exactly when some suffix starts with q, so the matches are the range [q, q + ':') of the index
 * (':' follows '9'). The trigram index answered "1380013" by merging five trigrams' lists, each
 * in about a hundredth of all phones, so its cost grew with the users, not with the matches.
 * Nicknames keep a trigram index of their own: SQLite's FTS5 table of (phone, nickname) becomes
 * one of nicknames alone, so a digit search no longer reads the phones' trigrams to find the
 * rare nickname with digits; PostgreSQL's trigram index on phones goes.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`create table phone_suffixes (
    suffix text ${sql.raw(dialect === 'postgres' ? 'collate "C" ' : '')}not null,
    user_id integer not null,
    primary key (suffix, user_id)
  )${sql.raw(dialect === 'sqlite' ? ' without rowid' : '')}`.execute(db);

  if (dialect === 'sqlite') {
    // Trigger bodies cannot use WITH, so the start positions are a VALUES list.
    const starts = Array.from({ length: LONGEST_PHONE - SHORTEST + 1 }, (_, i) => `(${i + 1})`).join(', ');
    const suffixesOf = (row: 'new' | 'old') =>
      `select substr(${row}.phone, s.column1), ${row}.id from (values ${starts}) as s
         where s.column1 <= length(${row}.phone) - ${SHORTEST - 1}`;
    await sql
      .raw(`create trigger phone_suffixes_insert after insert on users begin
        insert or ignore into phone_suffixes (suffix, user_id) ${suffixesOf('new')};
      end`)
      .execute(db);
    await sql
      .raw(`create trigger phone_suffixes_delete after delete on users begin
        delete from phone_suffixes where user_id = old.id and suffix in (select substr(old.phone, s.column1)
          from (values ${starts}) as s where s.column1 <= length(old.phone) - ${SHORTEST - 1});
      end`)
      .execute(db);
    await sql
      .raw(`create trigger phone_suffixes_update after update of phone on users begin
        delete from phone_suffixes where user_id = old.id and suffix in (select substr(old.phone, s.column1)
          from (values ${starts}) as s where s.column1 <= length(old.phone) - ${SHORTEST - 1});
        insert or ignore into phone_suffixes (suffix, user_id) ${suffixesOf('new')};
      end`)
      .execute(db);
    // Sorted first, so the index is written in order.
    await sql
      .raw(`insert or ignore into phone_suffixes (suffix, user_id)
        select * from (select substr(new.phone, s.column1) as suffix, new.id as user_id
          from users as new, (values ${starts}) as s where s.column1 <= length(new.phone) - ${SHORTEST - 1})
        order by suffix, user_id`)
      .execute(db);

    await sql`create virtual table users_nickname_search using fts5(nickname, content='users', content_rowid='id', tokenize='trigram')`.execute(
      db,
    );
    await sql`create trigger users_nickname_search_insert after insert on users begin
      insert into users_nickname_search(rowid, nickname) values (new.id, new.nickname);
    end`.execute(db);
    await sql`create trigger users_nickname_search_delete after delete on users begin
      insert into users_nickname_search(users_nickname_search, rowid, nickname) values ('delete', old.id, old.nickname);
    end`.execute(db);
    await sql`create trigger users_nickname_search_update after update of nickname on users begin
      insert into users_nickname_search(users_nickname_search, rowid, nickname) values ('delete', old.id, old.nickname);
      insert into users_nickname_search(rowid, nickname) values (new.id, new.nickname);
    end`.execute(db);
    await sql`insert into users_nickname_search(users_nickname_search) values ('rebuild')`.execute(db);
    for (const change of ['insert', 'delete', 'update'])
      await sql.raw(`drop trigger users_search_${change}`).execute(db);
    await sql`drop table users_search`.execute(db);
    return;
  }

  await sql
    .raw(`create function phone_suffixes_keep() returns trigger language plpgsql as $$ begin
    if tg_op <> 'INSERT' then
      delete from phone_suffixes where user_id = old.id and suffix in (
        select substr(old.phone, s) from generate_series(1, char_length(old.phone) - ${SHORTEST - 1}) as s);
    end if;
    if tg_op <> 'DELETE' then
      insert into phone_suffixes (suffix, user_id)
        select substr(new.phone, s), new.id from generate_series(1, char_length(new.phone) - ${SHORTEST - 1}) as s
        on conflict do nothing;
    end if;
    return null;
  end $$`)
    .execute(db);
  await sql`create trigger phone_suffixes_keep after insert or delete or update of phone on users
    for each row execute function phone_suffixes_keep()`.execute(db);
  await sql
    .raw(`insert into phone_suffixes (suffix, user_id)
      select substr(phone, s), id from users, generate_series(1, char_length(phone) - ${SHORTEST - 1}) as s
      on conflict do nothing`)
    .execute(db);
  await sql`drop index users_phone_trgm`.execute(db);
}
