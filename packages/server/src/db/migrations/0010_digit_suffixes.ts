import { type Kysely, sql } from 'kysely';
import type { Dialect } from './helpers';

/**
 * Searching digits (three or more) in phones and nicknames in time bound by the matches
 * (issue 14): a B-tree of every digit suffix of each user, three characters or longer: of the
 * phone, and of each run of three or more digits in the nickname (`digitSuffixes`, db/grams.mjs).
 * Digits q occur in a user's phone or nickname exactly when one of its suffixes starts with q,
 * so the matches are the range [q, q + ':') of the index (':' follows '9'). Before, the trigram
 * indexes answered "1380013" by merging five trigrams' lists, each holding about a hundredth of
 * all users, so the cost grew with the users, not with the matches.
 * Nicknames keep a trigram index for other text: SQLite's FTS5 table of (phone, nickname) becomes
 * one of nicknames alone; PostgreSQL's trigram index on phones goes.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`create table digit_suffixes (
    suffix text ${sql.raw(dialect === 'postgres' ? 'collate "C" ' : '')}not null,
    user_id integer not null,
    primary key (suffix, user_id)
  )${sql.raw(dialect === 'sqlite' ? ' without rowid' : '')}`.execute(db);

  if (dialect === 'sqlite') {
    // appdesk_digit_suffixes is registered on every connection (registerSearchFunctions) and answers a JSON array.
    const suffixesOf = (row: 'new' | 'old') =>
      `select value, ${row}.id from json_each(appdesk_digit_suffixes(${row}.phone, ${row}.nickname))`;
    const removeOld = `delete from digit_suffixes where user_id = old.id
      and suffix in (select value from json_each(appdesk_digit_suffixes(old.phone, old.nickname)));`;
    await sql
      .raw(`create trigger digit_suffixes_insert after insert on users begin
        insert or ignore into digit_suffixes (suffix, user_id) ${suffixesOf('new')};
      end`)
      .execute(db);
    await sql.raw(`create trigger digit_suffixes_delete after delete on users begin ${removeOld} end`).execute(db);
    await sql
      .raw(`create trigger digit_suffixes_update after update of phone, nickname on users begin
        ${removeOld}
        insert or ignore into digit_suffixes (suffix, user_id) ${suffixesOf('new')};
      end`)
      .execute(db);
    // Sorted first, so the index is written in order.
    await sql`insert or ignore into digit_suffixes (suffix, user_id)
      select * from (select s.value as suffix, u.id as user_id
        from users as u, json_each(appdesk_digit_suffixes(u.phone, u.nickname)) as s)
      order by suffix, user_id`.execute(db);

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

  // The same suffixes as db/grams.mjs's digitSuffixes: phone and nickname digit runs of 3+, each once.
  await sql`create function appdesk_digit_suffixes(phone text, nickname text) returns setof text
    language sql immutable parallel safe as $$
      select distinct substr(run, s) from (
        select phone as run
        union all
        select m[1] from regexp_matches(coalesce(nickname, ''), '([0-9]{3,})', 'g') as m
      ) as runs, generate_series(1, char_length(run) - 2) as s
    $$`.execute(db);
  await sql`create function digit_suffixes_keep() returns trigger language plpgsql as $$ begin
    if tg_op <> 'INSERT' then
      delete from digit_suffixes where user_id = old.id
        and suffix in (select appdesk_digit_suffixes(old.phone, old.nickname));
    end if;
    if tg_op <> 'DELETE' then
      insert into digit_suffixes (suffix, user_id) select appdesk_digit_suffixes(new.phone, new.nickname), new.id
        on conflict do nothing;
    end if;
    return null;
  end $$`.execute(db);
  await sql`create trigger digit_suffixes_keep after insert or delete or update of phone, nickname on users
    for each row execute function digit_suffixes_keep()`.execute(db);
  await sql`insert into digit_suffixes (suffix, user_id)
    select appdesk_digit_suffixes(phone, nickname), id from users on conflict do nothing`.execute(db);
  await sql`drop index users_phone_trgm`.execute(db);
}
