import { type Kysely, sql } from 'kysely';
import type { Dialect } from './helpers';

/**
 * PostgreSQL: one- and two-character searches read the pieces of nicknames from a B-tree of
 * (piece, user_id), newest user first, instead of the GIN index of migration 0005. A GIN index
 * answers with a bitmap of every match, which the database then fetches and sorts to show the
 * newest 20: 164 ms for a common piece among a million users. The B-tree hands over the newest
 * matches in order and counts up to the exact-count limit from the index alone. Phones are not
 * in it: every one or two digits occur in about a tenth of all phones or more, so a walk of the
 * users newest first finds a page of them after a few hundred rows.
 * SQLite keeps its FTS5 index of the pieces (0005), which already lists matches in id order.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`drop index users_grams`.execute(db);
  await sql`create table nickname_pieces (
    piece text not null,
    user_id integer not null,
    primary key (piece, user_id)
  )`.execute(db);
  await sql`create function nickname_pieces_keep() returns trigger language plpgsql as $$ begin
    if tg_op <> 'INSERT' then
      delete from nickname_pieces where user_id = old.id and piece = any(appdesk_grams(old.nickname));
    end if;
    if tg_op <> 'DELETE' then
      insert into nickname_pieces (piece, user_id) select unnest(appdesk_grams(new.nickname)), new.id
        on conflict do nothing;
    end if;
    return null;
  end $$`.execute(db);
  await sql`create trigger nickname_pieces_keep after insert or delete or update of nickname on users
    for each row execute function nickname_pieces_keep()`.execute(db);
  await sql`insert into nickname_pieces (piece, user_id) select unnest(appdesk_grams(nickname)), id from users`.execute(
    db,
  );
}
