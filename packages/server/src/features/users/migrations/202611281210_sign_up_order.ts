import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../db/migrations/helpers';

/**
 * Whether ids are still in sign-up order: kept count `users.signup_out_of_order` counts the places
 * where an account's sign-up time is earlier than that of the account with the next lower id (an
 * imported account, or a sign-up time changed). While it is 0, id order is (created_at, id) order,
 * and a search pages through its indexed matches by id (users/list.ts); otherwise it sorts them by
 * sign-up time. A sequence is in order when each neighbour pair is, so each insert compares the row
 * with its two neighbours by id (two primary-key probes); any change of a sign-up time counts.
 * Never counted down: a delete cannot make ids out of order, and staying on the slower path is safe.
 */
const NAME = 'users.signup_out_of_order';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql
    .raw(
      `insert into row_counts (name, n)
         select '${NAME}', count(*) from (
           select created_at < lag(created_at) over (order by id) as late from users
         ) as x where late`,
    )
    .execute(db);
  const below = '(select u.created_at from users as u where u.id < new.id order by u.id desc limit 1)';
  const above = '(select u.created_at from users as u where u.id > new.id order by u.id limit 1)';
  const late = `(new.created_at < coalesce(${below}, new.created_at) or new.created_at > coalesce(${above}, new.created_at))`;
  const add = `update row_counts set n = n + 1 where name = '${NAME}'`;
  if (dialect === 'sqlite') {
    await sql
      .raw(`create trigger users_signup_order_insert after insert on users when ${late} begin ${add}; end`)
      .execute(db);
    await sql
      .raw(
        `create trigger users_signup_order_update after update of created_at on users
         when new.created_at <> old.created_at begin ${add}; end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function users_signup_order() returns trigger language plpgsql as $$ begin
        if tg_op = 'INSERT' then if ${late} then ${add}; end if;
        elsif new.created_at <> old.created_at then ${add};
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      'create trigger users_signup_order after insert or update of created_at on users for each row execute function users_signup_order()',
    )
    .execute(db);
}
