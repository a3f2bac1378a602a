import { expect, it } from 'vitest';
import { NARROW_RANGES, plannedPerRun } from '../src/db/pg-prepared';

/**
 * Which statements PostgreSQL plans on every run (unnamed) and which it may keep a generic plan
 * for (named): a bound pattern or a range on anything but an id depends on its values.
 */
it('plans patterns and non-id ranges per run, and lets point reads, joins and id ranges keep a plan', () => {
  const cases: [string, boolean][] = [
    ['select * from "users" where "users"."nickname" like $1', true],
    [`select * from users where phone like $1 escape '\\'`, true],
    ['select * from "users" where "users"."nickname" ilike $1', true],
    ['select * from "coin_records" where "coin_records"."created_at" >= $1 order by "id" desc limit $2', true],
    ['select distinct user_id as id from digit_suffixes where suffix >= $1 and suffix < $2', true],
    // Marked narrow (five digits or more): the range keeps a plan; a pattern beside it still does not.
    [`select distinct user_id as id from digit_suffixes where ${NARROW_RANGES} suffix >= $1 and suffix < $2`, false],
    [`select id from users where ${NARROW_RANGES} created_at >= $1 and nickname like $2`, true],
    ['select * from "users" where "users"."blocked_until" <= $1', true],
    ['select * from "users" where ("users"."created_at", "users"."id") <= ($1, $2) limit $3', true],
    [
      `select * from "audit_log" as "a" left join "users" as "t" on "a"."target_type" = 'user' and "t"."id" = case when "a"."target_id" ~ '^[0-9]{1,10}$' then "a"."target_id"::bigint end where "a"."id" in (select "a"."id" from "audit_log" as "a" where "a"."id" <= $1 order by "a"."id" desc limit $2)`,
      false,
    ],
    [
      'select * from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where "sessions"."token_hash" = $1',
      false,
    ],
    ['select * from "users" where "users"."status" <> $1 limit $2 offset $3', false],
  ];
  for (const [text, perRun] of cases) expect(plannedPerRun(text), text).toBe(perRun);
});
