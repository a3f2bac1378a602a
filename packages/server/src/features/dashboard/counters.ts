import { DEFAULT_APP } from '@appdesk/contract/constants';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/migrations/helpers';

/**
 * The dashboard's counters (table stat_counts): sign-ups, active users, paid orders, revenue,
 * coins and redemptions per hour or per day, kept by database triggers in the same transaction as
 * the row that changes them, so no request ever counts a big table. Shared by the migration and
 * the benchmark's seeder (which drops the triggers during a bulk load and rolls the rows up after).
 *
 * Buckets: `.h` metrics count per hour since the epoch; `.d` metrics per day in Asia/Shanghai
 * (UTC+8 all year), numbered from 1970-01-01 there.
 *
 * Per app (issue 29): every counter of an app's rows (users by the app they registered in, orders,
 * redemptions) is kept twice, for all apps (`signups.d`) and for the row's app (`signups.d:quote`),
 * in the same statement, so the figures of 全部应用 are the sum of the apps' by construction. A user
 * with no app counts under the first app. Coins are company-wide and kept once. `users` (bucket 0)
 * is the number of users per app (all apps: row_counts).
 */

/** A counter's name for one app, or for all apps when `app` is undefined. */
export const metricOf = (metric: string, app?: string) => (app === undefined ? metric : `${metric}:${app}`);
/** The app a row counts under, in SQL. */
const appOf = (row: string) => `coalesce(${row}.app, '${DEFAULT_APP}')`;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const SHANGHAI_OFFSET_MS = 28_800_000;

/** The day number (days since 1970-01-01 in Shanghai) of an instant. */
export const dayOf = (ms: number) => Math.floor((ms + SHANGHAI_OFFSET_MS) / DAY_MS);
/** The hour number of an instant. */
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);

/** The month number (year × 12 + month − 1, Shanghai time) of a day number. */
export const monthOfDay = (day: number) => {
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
};
/** The day number of the first day of a month number. */
export const firstDayOfMonth = (month: number) => Date.UTC(Math.floor(month / 12), month % 12, 1) / DAY_MS;

const hourSql = (column: string) => `(cast(${column} as bigint) / ${HOUR_MS})`;
const daySql = (column: string) => `((cast(${column} as bigint) + ${SHANGHAI_OFFSET_MS}) / ${DAY_MS})`;
/** The month number in SQL: the dialect's date functions read the instant moved to Shanghai's wall clock. */
const monthSqlFor: Record<Dialect, (column: string) => string> = {
  sqlite: (column) => {
    const at = `(cast(${column} as bigint) + ${SHANGHAI_OFFSET_MS}) / 1000, 'unixepoch'`;
    return `(cast(strftime('%Y', ${at}) as integer) * 12 + cast(strftime('%m', ${at}) as integer) - 1)`;
  },
  postgres: (column) => {
    const at = `(to_timestamp((cast(${column} as bigint) + ${SHANGHAI_OFFSET_MS}) / 1000.0) at time zone 'UTC')`;
    return `(cast(extract(year from ${at}) as integer) * 12 + cast(extract(month from ${at}) as integer) - 1)`;
  },
};

interface Bump {
  metric: string;
  bucket: string;
  dim: string;
  delta: string;
  /** SQL of the row's app: the bump counts `<metric>:<app>` rather than `<metric>`. */
  app?: string;
}

/** Each bump for all apps and again for the row's app. */
const withApp = (row: 'new' | 'old', bumps: Bump[]): Bump[] => bumps.flatMap((b) => [b, { ...b, app: appOf(row) }]);

interface CounterTrigger {
  name: string;
  table: string;
  event: 'insert' | 'update' | 'delete';
  /** Update triggers: the columns whose change fires them. */
  columns?: string[];
  when: string;
  bumps: Bump[];
}

/**
 * Every counter, by grain: `.h` per hour and `.d` per day ('' breakdown: the time series); `.dc`
 * per day and `.mc` per month by channel, `.di` and `.mi` by exchange item (the breakdowns: a year
 * reads eleven months and the current month's days, not 365 days × 24 channels).
 */
function counterTriggers(dialect: Dialect, perApp: boolean): CounterTrigger[] {
  const twin = perApp ? withApp : (_row: 'new' | 'old', bumps: Bump[]) => bumps;
  const monthSql = monthSqlFor[dialect];
  const channel = (row: string) => `coalesce(${row}.channel, '')`;
  const paidOrder = (row: 'new' | 'old', sign: '' | '-'): Bump[] =>
    twin(row, [
      { metric: 'orders.h', bucket: hourSql(`${row}.paid_at`), dim: "''", delta: `${sign}1` },
      { metric: 'revenue.h', bucket: hourSql(`${row}.paid_at`), dim: "''", delta: `${sign}${row}.amount` },
      { metric: 'orders.d', bucket: daySql(`${row}.paid_at`), dim: "''", delta: `${sign}1` },
      { metric: 'revenue.d', bucket: daySql(`${row}.paid_at`), dim: "''", delta: `${sign}${row}.amount` },
      { metric: 'revenue.dc', bucket: daySql(`${row}.paid_at`), dim: channel(row), delta: `${sign}${row}.amount` },
      { metric: 'revenue.mc', bucket: monthSql(`${row}.paid_at`), dim: channel(row), delta: `${sign}${row}.amount` },
    ]);
  const isPaid = (row: 'new' | 'old') => `${row}.status = 'paid' and ${row}.paid_at is not null`;
  const exchanged = (row: 'new' | 'old', delta: string): Bump[] =>
    twin(row, [
      { metric: 'exchanges.di', bucket: daySql(`${row}.created_at`), dim: `cast(${row}.item_id as text)`, delta },
      { metric: 'exchanges.mi', bucket: monthSql(`${row}.created_at`), dim: `cast(${row}.item_id as text)`, delta },
    ]);
  const perAppUsers: CounterTrigger[] = perApp
    ? [
        {
          name: 'stat_users_app_insert',
          table: 'users',
          event: 'insert',
          when: 'true',
          bumps: [{ metric: 'users', bucket: '0', dim: "''", delta: '1', app: appOf('new') }],
        },
        {
          name: 'stat_users_app_delete',
          table: 'users',
          event: 'delete',
          when: 'true',
          bumps: [{ metric: 'users', bucket: '0', dim: "''", delta: '-1', app: appOf('old') }],
        },
      ]
    : [];
  return [
    ...perAppUsers,
    {
      name: 'stat_users_signup',
      table: 'users',
      event: 'insert',
      when: 'true',
      bumps: twin('new', [
        { metric: 'signups.h', bucket: hourSql('new.created_at'), dim: "''", delta: '1' },
        { metric: 'signups.d', bucket: daySql('new.created_at'), dim: "''", delta: '1' },
        { metric: 'signups.dc', bucket: daySql('new.created_at'), dim: channel('new'), delta: '1' },
        { metric: 'signups.mc', bucket: monthSql('new.created_at'), dim: channel('new'), delta: '1' },
      ]),
    },
    {
      name: 'stat_users_active_new',
      table: 'users',
      event: 'insert',
      when: 'new.last_active_at is not null',
      bumps: twin('new', [
        { metric: 'active.h', bucket: hourSql('new.last_active_at'), dim: "''", delta: '1' },
        { metric: 'active.d', bucket: daySql('new.last_active_at'), dim: "''", delta: '1' },
      ]),
    },
    // A user counts once per hour and once per day they were active: the first time last_active_at
    // moves into a new hour (day), which the session touch does at most once a minute.
    {
      name: 'stat_users_active_hour',
      table: 'users',
      event: 'update',
      columns: ['last_active_at'],
      when: `new.last_active_at is not null and (old.last_active_at is null or ${hourSql('new.last_active_at')} > ${hourSql('old.last_active_at')})`,
      bumps: twin('new', [{ metric: 'active.h', bucket: hourSql('new.last_active_at'), dim: "''", delta: '1' }]),
    },
    {
      name: 'stat_users_active_day',
      table: 'users',
      event: 'update',
      columns: ['last_active_at'],
      when: `new.last_active_at is not null and (old.last_active_at is null or ${daySql('new.last_active_at')} > ${daySql('old.last_active_at')})`,
      bumps: twin('new', [{ metric: 'active.d', bucket: daySql('new.last_active_at'), dim: "''", delta: '1' }]),
    },
    // Revenue: orders that are paid, at their payment time; a refund (or any change) takes the old
    // figure back and adds the new one.
    { name: 'stat_orders_insert', table: 'orders', event: 'insert', when: isPaid('new'), bumps: paidOrder('new', '') },
    {
      name: 'stat_orders_update_old',
      table: 'orders',
      event: 'update',
      columns: ['status', 'paid_at', 'amount', 'channel'],
      when: isPaid('old'),
      bumps: paidOrder('old', '-'),
    },
    {
      name: 'stat_orders_update_new',
      table: 'orders',
      event: 'update',
      columns: ['status', 'paid_at', 'amount', 'channel'],
      when: isPaid('new'),
      bumps: paidOrder('new', ''),
    },
    { name: 'stat_orders_delete', table: 'orders', event: 'delete', when: isPaid('old'), bumps: paidOrder('old', '-') },
    {
      name: 'stat_coins_in',
      table: 'coin_records',
      event: 'insert',
      when: 'new.delta > 0',
      bumps: [{ metric: 'coins_in.d', bucket: daySql('new.created_at'), dim: "''", delta: 'new.delta' }],
    },
    {
      name: 'stat_coins_out',
      table: 'coin_records',
      event: 'insert',
      when: 'new.delta < 0',
      bumps: [{ metric: 'coins_out.d', bucket: daySql('new.created_at'), dim: "''", delta: '-new.delta' }],
    },
    {
      name: 'stat_exchanges_insert',
      table: 'exchange_records',
      event: 'insert',
      when: "new.status <> 'cancelled'",
      bumps: exchanged('new', '1'),
    },
    {
      name: 'stat_exchanges_cancel',
      table: 'exchange_records',
      event: 'update',
      columns: ['status'],
      when: "old.status <> 'cancelled' and new.status = 'cancelled'",
      bumps: exchanged('old', '-1'),
    },
    {
      name: 'stat_exchanges_uncancel',
      table: 'exchange_records',
      event: 'update',
      columns: ['status'],
      when: "old.status = 'cancelled' and new.status <> 'cancelled'",
      bumps: exchanged('new', '1'),
    },
  ];
}

const upsert = (b: Bump) =>
  `insert into stat_counts (metric, bucket, dim, value) values (${b.app ? `'${b.metric}:' || ${b.app}` : `'${b.metric}'`}, ${b.bucket}, ${b.dim}, ${b.delta})
     on conflict (metric, bucket, dim) do update set value = stat_counts.value + excluded.value`;

/** The statements that create one trigger (SQLite: a trigger; PostgreSQL: a function and its trigger). */
function createTrigger(dialect: Dialect, t: CounterTrigger): string[] {
  const of = t.columns?.length ? ` of ${t.columns.join(', ')}` : '';
  if (dialect === 'sqlite') {
    return [
      `create trigger ${t.name} after ${t.event}${of} on ${t.table} when ${t.when}
       begin ${t.bumps.map((b) => `${upsert(b)};`).join('\n')} end`,
    ];
  }
  return [
    `create or replace function ${t.name}() returns trigger language plpgsql as $$ begin
       if ${t.when} then ${t.bumps.map((b) => `${upsert(b)};`).join('\n')} end if;
       return null;
     end $$`,
    `create trigger ${t.name} after ${t.event}${of} on ${t.table} for each row execute function ${t.name}()`,
  ];
}

/** `perApp: false`: the counters as first made (the 2026-11-23 migration, before rows had apps). */
export function createTriggersSql(dialect: Dialect, { perApp = true } = {}): string[] {
  return counterTriggers(dialect, perApp).flatMap((t) => createTrigger(dialect, t));
}

export function dropTriggersSql(dialect: Dialect, { perApp = true } = {}): string[] {
  return counterTriggers(dialect, perApp).map((t) =>
    dialect === 'sqlite' ? `drop trigger if exists ${t.name}` : `drop trigger if exists ${t.name} on ${t.table}`,
  );
}

/** Rolls a table's rows up into fresh counters (the migration, a bulk load); `tables` limits which. */
export function rollUpSql(
  dialect: Dialect,
  tables: string[] = ['users', 'orders', 'coin_records', 'exchange_records'],
  { perApp = true } = {},
): string[] {
  const monthSql = monthSqlFor[dialect];
  const into = (metric: string, bucket: string, dim: string, value: string, from: string) =>
    `insert into stat_counts (metric, bucket, dim, value)
       select '${metric}', b, d, v from (select ${bucket} as b, ${dim} as d, ${value} as v from ${from} group by 1, 2) as r`;
  // The same per app: `<metric>:<app>`; `from` is `<table> [where …]`.
  const intoPerApp = (metric: string, bucket: string, dim: string, value: string, from: string) =>
    `insert into stat_counts (metric, bucket, dim, value)
       select '${metric}:' || a, b, d, v from (select ${appOf(from.split(' ')[0])} as a, ${bucket} as b, ${dim} as d, ${value} as v from ${from} group by 1, 2, 3) as r`;
  const paid = "orders where status = 'paid' and paid_at is not null";
  const active = 'users where last_active_at is not null';
  const kept = "exchange_records where status <> 'cancelled'";
  const channel = "coalesce(channel, '')";
  const statements: Record<string, [string, string, string, string, string][]> = {
    users: [
      ['signups.h', hourSql('created_at'), "''", 'count(*)', 'users'],
      ['signups.d', daySql('created_at'), "''", 'count(*)', 'users'],
      ['signups.dc', daySql('created_at'), channel, 'count(*)', 'users'],
      ['signups.mc', monthSql('created_at'), channel, 'count(*)', 'users'],
      ['active.h', hourSql('last_active_at'), "''", 'count(*)', active],
      ['active.d', daySql('last_active_at'), "''", 'count(*)', active],
    ],
    orders: [
      ['orders.h', hourSql('paid_at'), "''", 'count(*)', paid],
      ['revenue.h', hourSql('paid_at'), "''", 'sum(amount)', paid],
      ['orders.d', daySql('paid_at'), "''", 'count(*)', paid],
      ['revenue.d', daySql('paid_at'), "''", 'sum(amount)', paid],
      ['revenue.dc', daySql('paid_at'), channel, 'sum(amount)', paid],
      ['revenue.mc', monthSql('paid_at'), channel, 'sum(amount)', paid],
    ],
    coin_records: [
      ['coins_in.d', daySql('created_at'), "''", 'sum(delta)', 'coin_records where delta > 0'],
      ['coins_out.d', daySql('created_at'), "''", '-sum(delta)', 'coin_records where delta < 0'],
    ],
    exchange_records: [
      ['exchanges.di', daySql('created_at'), 'cast(item_id as text)', 'count(*)', kept],
      ['exchanges.mi', monthSql('created_at'), 'cast(item_id as text)', 'count(*)', kept],
    ],
  };
  const perAppOnly: Record<string, [string, string, string, string, string][]> = {
    users: [['users', '0', "''", 'count(*)', 'users']],
  };
  const appScoped = new Set(['users', 'orders', 'exchange_records']);
  return tables.flatMap((t) => {
    const apps = perApp && appScoped.has(t) ? [...statements[t], ...(perAppOnly[t] ?? [])] : [];
    const names = [...new Set([...statements[t], ...apps].map(([m]) => m))];
    return [
      `delete from stat_counts where metric in (${statements[t].map(([m]) => `'${m}'`).join(', ')})`,
      ...(apps.length ? names.map((m) => `delete from stat_counts where metric like '${m}:%'`) : []),
      ...statements[t].map((args) => into(...args)),
      ...apps.map((args) => intoPerApp(...args)),
    ];
  });
}

/** The counters of app-scoped rows (users, orders, redemptions): kept per app as well. */
export const APP_SCOPED_METRICS = [
  'signups.h',
  'signups.d',
  'signups.dc',
  'signups.mc',
  'active.h',
  'active.d',
  'orders.h',
  'orders.d',
  'revenue.h',
  'revenue.d',
  'revenue.dc',
  'revenue.mc',
  'exchanges.di',
  'exchanges.mi',
] as const;

/**
 * The per-app counters of a site from before apps were data, whose every row is the first app's:
 * a copy of the all-apps counters under that app (their history included, which no roll-up from
 * the rows could rebuild: activity counts every active hour, the rows only the last), and its
 * number of users.
 */
export function firstAppCountersSql(): string[] {
  return [
    `insert into stat_counts (metric, bucket, dim, value)
       select metric || ':${DEFAULT_APP}', bucket, dim, value from stat_counts
       where metric in (${APP_SCOPED_METRICS.map((m) => `'${m}'`).join(', ')})`,
    `insert into stat_counts (metric, bucket, dim, value)
       select 'users:${DEFAULT_APP}', 0, '', n from row_counts where name = 'users'`,
  ];
}

/**
 * Accounts stamped active when they were made though nobody had used them (generated by an
 * operator, or the first administrator before signing in; accounts are now made without activity):
 * never signed in, active exactly at creation. Their activity is taken out of the hourly and daily
 * counters, where the insert counted it once, and cleared.
 */
export function forgetUnusedAccountsSql(): string[] {
  const unused = 'users where last_login_at is null and last_active_at = created_at';
  // `where true`: SQLite reads ON CONFLICT after a bare SELECT's FROM as a join's constraint.
  const takeBack = (metric: string, bucket: string) =>
    `insert into stat_counts (metric, bucket, dim, value)
       select '${metric}', b, '', -n from (select ${bucket} as b, count(*) as n from ${unused} group by 1) as r where true
       on conflict (metric, bucket, dim) do update set value = stat_counts.value + excluded.value`;
  return [
    takeBack('active.h', hourSql('last_active_at')),
    takeBack('active.d', daySql('last_active_at')),
    `update ${unused.replace(' where ', ' set last_active_at = null where ')}`,
  ];
}

export async function runAll(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
