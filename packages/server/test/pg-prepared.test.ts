import { expect, it, vi } from 'vitest';
import { inlineLimits, NARROW_RANGES, PreparedStatementsClient, plannedPerRun } from '../src/db/pg-prepared';
import { testDb } from './harness';

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
    // A deep page's seek from its anchor, marked: it reads its LIMIT's rows along the index for any key.
    [`select * from "users" where ${NARROW_RANGES} (users.created_at, users.id) <= ($1, $2) limit 20 offset 0`, false],
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

it('writes LIMITs and OFFSETs of 0 as literals and renumbers the values after them', () => {
  const page = 'select * from "users" where "status" = $1 order by "id" desc limit $2 offset $3';
  expect(inlineLimits(page, ['normal', 20, 0])).toEqual({
    text: 'select * from "users" where "status" = $1 order by "id" desc limit 20 offset 0',
    values: ['normal'],
  });
  // A deeper OFFSET stays bound (one text for every page), and so does the value after it.
  expect(inlineLimits(`${page} and "id" < $4`, ['normal', 20, 400, 9])).toEqual({
    text: 'select * from "users" where "status" = $1 order by "id" desc limit 20 offset $2 and "id" < $3',
    values: ['normal', 400, 9],
  });
  // A LIMIT inside a subquery, before the outer values.
  expect(
    inlineLimits(
      'select * from "c" where "id" in (select "id" from "c" where "id" <= $1 limit $2) and "u" = $3',
      [50, 20, 7],
    ),
  ).toEqual({
    text: 'select * from "c" where "id" in (select "id" from "c" where "id" <= $1 limit 20) and "u" = $2',
    values: [50, 7],
  });
  // Only whole numbers are written into the text.
  for (const odd of ['20', 2.5, -1, null]) {
    expect(inlineLimits('select 1 limit $1', [odd])).toEqual({ text: 'select 1 limit $1', values: [odd] });
  }
  expect(
    inlineLimits(
      'select $1 as "a", $10 as "b"',
      Array.from({ length: 10 }, (_, i) => i),
    ).text,
  ).toBe('select $1 as "a", $10 as "b"');
});

/**
 * On a real PostgreSQL: the same page query keeps a generic plan (planned once per connection)
 * when its LIMIT is a literal, and is planned on every run when the LIMIT is bound.
 */
it.skipIf(testDb !== 'postgres')('lets a list page keep its plan on PostgreSQL', async () => {
  // A fresh copy of the module: this process has run other servers, whose texts may have used up
  // the process's MAX_PREPARED names, past which a new text runs unnamed (and keeps no plan).
  vi.resetModules();
  const fresh = await import('../src/db/pg-prepared');
  const client = new fresh.PreparedStatementsClient({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const page = 'select "oid", "relname" from "pg_class" where "relkind" = $1 order by "oid" desc limit $2 offset $3';
    for (let run = 0; run < 8; run++) await client.query(page, ['r', 20, 0]);
    // The same text named as it is, with its LIMIT bound: what ran before inlineLimits.
    for (let run = 0; run < 8; run++) await client.query({ name: 'bound_limit', text: page, values: ['r', 20, 0] });
    const { rows } = (await client.query('select name, generic_plans, custom_plans from pg_prepared_statements')) as {
      rows: { name: string; generic_plans: string; custom_plans: string }[];
    };
    const kept = rows.find((r) => r.name !== 'bound_limit');
    const bound = rows.find((r) => r.name === 'bound_limit');
    expect(Number(kept?.generic_plans)).toBeGreaterThanOrEqual(3);
    expect(Number(bound?.generic_plans)).toBe(0);
    expect(Number(bound?.custom_plans)).toBe(8);
  } finally {
    await client.end();
  }
});

/**
 * The session cache is cleared by this process's own writes before the call that made them
 * answers (core/session-cache.ts): after each statement that may have changed users or sessions,
 * and again once its transaction has ended, never for reads or other tables.
 */
it.skipIf(testDb !== 'postgres')(
  'tells the session cache of writes to users and sessions once they are done',
  async () => {
    let heard = 0;
    const client = new PreparedStatementsClient({
      connectionString: process.env.TEST_DATABASE_URL,
      afterSessionWrite: () => {
        heard += 1;
      },
    });
    await client.connect();
    const heardAfter = async (text: string, values: unknown[] = []) => {
      const before = heard;
      await client.query(text, values);
      return heard - before;
    };
    try {
      await client.query('create temporary table users (id int, nickname text)');
      await client.query('create temporary table sessions (id int)');
      await client.query('create temporary table notes (id int)');
      expect(await heardAfter('insert into "users" ("id", "nickname") values ($1, $2)', [1, 'a'])).toBe(1);
      expect(await heardAfter('update "users" set "nickname" = $1 where "id" = $2', ['b', 1])).toBe(1);
      expect(await heardAfter('delete from "sessions" where "id" = $1', [1])).toBe(1);
      expect(await heardAfter('select * from "users" where "id" = $1', [1])).toBe(0);
      expect(await heardAfter('with u as (select id from users) select * from u', [])).toBe(0);
      expect(await heardAfter('insert into "notes" ("id") values ($1)', [1])).toBe(0);
      expect(await heardAfter('select "id" as "updated_at" from "users"', [])).toBe(0);

      // In a transaction: at the write, and again at its end (the commit is when others can see it).
      expect(await heardAfter('begin')).toBe(0);
      expect(await heardAfter('update "users" set "nickname" = $1 where "id" = $2', ['c', 1])).toBe(1);
      expect(await heardAfter('savepoint s1')).toBe(0);
      expect(await heardAfter('rollback to savepoint s1')).toBe(0);
      expect(await heardAfter('commit')).toBe(1);
      // A transaction that changed neither table ends unheard.
      expect(await heardAfter('begin')).toBe(0);
      expect(await heardAfter('insert into "notes" ("id") values ($1)', [2])).toBe(0);
      expect(await heardAfter('rollback')).toBe(0);
      // A failed write is heard too: clearing is always safe.
      await expect(client.query('update "users" set "missing" = $1', [1])).rejects.toThrow();
      expect(heard).toBe(6);
    } finally {
      await client.end();
    }
  },
);
