import type { UserListFilter } from '@appdesk/contract/endpoints/users';
import { type ExpressionBuilder, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { listPage } from '../../db/anchors';
import type { Db, Dialect } from '../../db/index';
import {
  containsText,
  countedTotal,
  DEEP_PAGE_ROWS,
  EXACT_COUNT_LIMIT,
  escapeLike,
  keptTotal,
  type Total,
} from '../../db/paging';
import { NARROW_RANGES } from '../../db/pg-prepared';
import type { Database } from '../../db/schema';
import { inScopeSql } from '../../http/app-scope';
import { directionOf, type ExportOrder } from '../../http/export';
import { vipExpiryColumn, vipSegment } from '../vip/public';

type Segments = Pick<UserListFilter, 'channel' | 'app' | 'from' | 'to' | 'activeFrom' | 'activeTo' | 'vip'> & {
  /** The apps of an operator limited to several (or none): one app is `app` (usersInScope). */
  apps?: readonly string[];
};
type Filter = Required<Pick<UserListFilter, 'status' | 'search' | 'sort'>> &
  Segments & { order?: 'ascend' | 'descend' };

const segmentKeys = ['channel', 'app', 'apps', 'from', 'to', 'activeFrom', 'activeTo', 'vip'] as const;
/** True when the list is cut down by channel, app, a date range or VIP state (not only status and search). */
const segmented = (filter: Segments) => segmentKeys.some((key) => filter[key] !== undefined);
const ms = (time: string | undefined) => (time === undefined ? undefined : Date.parse(time));

/** A row of userPage: the columns asked for, and the VIP expiry when asked (`vip`). */
export type UserPageRow<C extends readonly (keyof Database['users'])[]> = Pick<
  Selectable<Database['users']>,
  C[number]
> & { vip_expires_at?: number | string | null };

export const sortColumn = { createdAt: 'created_at', lastActiveAt: 'last_active_at', coins: 'coins' } as const;

/**
 * The ORDER BY term of a sort. Last activity is null for accounts that never signed in: lowest, as
 * SQLite orders nulls by itself, so PostgreSQL is told so (its index matches, migration 202611281200).
 */
function sortTerm(dialect: Dialect, sort: Filter['sort'], direction: 'asc' | 'desc') {
  const column = sql.ref(`users.${sortColumn[sort]}`);
  if (dialect !== 'postgres' || sort !== 'lastActiveAt') return sql`${column} ${sql.raw(direction)}`;
  return sql`${column} ${sql.raw(direction === 'desc' ? 'desc nulls last' : 'asc nulls first')}`;
}

/** The list's order for its export: never-active users lowest, as sortTerm orders them. */
export function exportOrder(sort: Filter['sort'], order: Filter['order']): ExportOrder {
  const column = `users.${sortColumn[sort]}`;
  return { id: 'users.id', column, nullable: sort === 'lastActiveAt', direction: directionOf(order) };
}

const idLike = (search: string) => (/^\d{1,9}$/.test(search) ? Number(search) : undefined);
const usesTrigrams = (search: string) => [...search].length >= 3;
/** One or two letters or digits: a piece of a nickname or phone, found through the short-search index (migration 0005). */
const usesGrams = (search: string) => !usesTrigrams(search) && /^[\p{L}\p{N}]+$/u.test(search);

/** PostgreSQL finds one or two digits in phones by walking the users (see indexedMatches). */
const walksPhones = (dialect: Dialect, search: string) => dialect === 'postgres' && /^\d{1,2}$/.test(search);
/** How many users a capped count of one or two digits looks at on PostgreSQL: past it, the total is "more than". */
const PHONE_WALK_ROWS = 20_000;
/** Three digits or more: found in phones and nicknames through the index of digit suffixes (migration 0010). */
const usesDigitSuffixes = (search: string) => /^\d{3,}$/.test(search);
/** From this many digits on, a suffix range holds few rows whatever the digits (about 70 of 1M users' 9M suffixes for five). */
const NARROW_DIGITS = 5;
const narrowDigits = (search: string) => usesDigitSuffixes(search) && search.length >= NARROW_DIGITS;

/**
 * The ids whose phone or nickname contains the text, plus the id typed, read from the search
 * indexes alone, or undefined when the text needs a scan. Three digits or more, on both
 * databases: the range of the digit-suffix index that starts with them (migration 0010), which
 * holds the phones and the digits of nicknames. Other text of three characters or more is in no
 * phone: SQLite finds it in nicknames with its FTS5 trigram index (a quoted phrase with inner
 * quotes doubled, so never FTS syntax), PostgreSQL by a scan through pg_trgm (undefined here).
 * One or two characters: SQLite's FTS5 index of the pieces of nicknames and phones (migration
 * 0005); PostgreSQL's B-tree of nickname pieces (migration 0008) and, for digits, a walk of the
 * users newest first (every one or two digits occur in a tenth of all phones or more). With
 * `first`, each part hands over only its first `first` ids in `direction` (id order is sign-up
 * order), so a page or a capped count never reads every match of an index listed in that order.
 */
function indexedMatches(
  dialect: Dialect,
  search: string,
  bound?: { direction: 'asc' | 'desc'; first: number; walk?: number },
): RawBuilder<{ id: number }>[] | undefined {
  const id = idLike(search);
  const typed = id === undefined ? [] : [sql<{ id: number }>`select id from users where id = ${id}`];
  // A bounded part is parenthesised for its own ORDER BY and LIMIT; an unbounded one is not, as
  // `id in ((select …))` would read the parentheses as one value.
  const part = (query: RawBuilder<unknown>, column: string) =>
    bound && dialect === 'postgres'
      ? sql<{ id: number }>`(${query} order by ${sql.ref(column)} ${sql.raw(bound.direction)} limit ${bound.first})`
      : (query as RawBuilder<{ id: number }>);
  if (usesDigitSuffixes(search)) {
    // Five digits or more match a few dozen users at most: PostgreSQL may keep one plan for them.
    const narrow = sql.raw(narrowDigits(search) ? NARROW_RANGES : '');
    const range = sql`select distinct user_id as id from digit_suffixes where ${narrow} suffix >= ${search} and suffix < ${`${search}:`}`;
    return [part(range, 'id'), ...typed];
  }
  if (dialect === 'sqlite') {
    if (!usesTrigrams(search) && !usesGrams(search)) return undefined;
    const phrase = `"${search.toLowerCase().replaceAll('"', '""')}"`;
    const matches = usesGrams(search)
      ? sql<{ id: number }>`select rowid as id from users_grams where users_grams match ${phrase}`
      : sql<{ id: number }>`select rowid as id from users_nickname_search where users_nickname_search match ${phrase}`;
    return [matches, ...typed];
  }
  if (!usesGrams(search)) return undefined;
  const parts = [part(sql`select user_id as id from nickname_pieces where piece = ${search.toLowerCase()}`, 'user_id')];
  if (walksPhones(dialect, search)) {
    // `walk`: only the newest (or oldest) rows are looked at, so a capped count stays cheap.
    const users = bound?.walk
      ? sql`(select id, phone from users order by id ${sql.raw(bound.direction)} limit ${bound.walk}) as w`
      : sql`users`;
    parts.push(part(sql`select id from ${users} where phone like ${`%${search}%`}`, 'id'));
  }
  return [...parts, ...typed];
}

const union = (parts: RawBuilder<{ id: number }>[]) => sql.join(parts, sql` union `) as RawBuilder<{ id: number }>;

/**
 * The search condition: an exact id, and phone or nickname containing the text. Substring
 * search uses the indexes above where they answer; on PostgreSQL, three characters or more that
 * are not all digits are in no phone, and are found in nicknames by pg_trgm's GIN index through LIKE.
 */
function searchCondition(dialect: Dialect, search: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) => {
    const matches = indexedMatches(dialect, search);
    if (matches) return eb('users.id', 'in', sql<number>`(${union(matches)})`);
    const ors = [];
    if (usesTrigrams(search)) {
      ors.push(eb('users.nickname', 'like', `%${escapeLike(search)}%`));
    } else {
      // One or two characters that are not letters or digits: a scan, bounded by the page and the count limit.
      ors.push(containsText(['users.phone', 'users.nickname'], search)(eb));
    }
    const id = idLike(search);
    if (id !== undefined) ors.push(eb('users.id', '=', id));
    return eb.or(ors);
  };
}

/**
 * The users matching a list filter, unordered: callers add select, order and limits. Segments
 * are plain column conditions over indexes (channel and app with sign-up time, sign-up time,
 * last activity; migration 202611231700 and earlier) or the VIP entitlements' index (vipSegment), so the database picks the
 * narrowest and a page or a capped count reads little of the table.
 */
export function filteredUsers(
  db: Db,
  dialect: Dialect,
  filter: Pick<Filter, 'status' | 'search'> & Segments & { ids?: number[] },
) {
  let query = db.selectFrom('users');
  const row = rowCondition(filter, 'users');
  if (row) query = query.where(row);
  if (filter.search) query = query.where(searchCondition(dialect, filter.search));
  if (filter.ids) query = query.where('id', 'in', filter.ids);
  // VIP is per app: in the listed app when one is chosen (or the operator's apps), else in any app (features/vip).
  if (filter.vip) query = query.where(vipSegment(filter.vip, vipApps(filter), Date.now()));
  return query;
}

/**
 * The filter as the operator's scope narrows it (http/app-scope.ts): an account is of the app it
 * signed up in. No scope: the filter as it is (its indexed paths untouched); one app: that app's
 * segment, as if chosen in the app switcher; several: `apps`. VIP figures follow (vipApps).
 */
export function usersInScope<F extends object>(filter: F, apps: readonly string[] | undefined): F {
  if (apps === undefined) return filter;
  return (apps.length === 1 ? { ...filter, app: apps[0] } : { ...filter, app: undefined, apps }) as F;
}

/** The apps whose VIP the rows show: the chosen app, the operator's apps, or (undefined) any app's. */
export const vipApps = (filter: Segments) => filter.apps ?? filter.app;

/**
 * One page of users and the total. The common operator search (any status, newest first) pages
 * through the indexed matches by id and counts them without touching the users table, while ids
 * are in sign-up order (no account came in with an earlier sign-up time than an older id's: kept
 * count of migration 202611281210); otherwise it sorts the matches by sign-up time, as the list.
 */
export async function userPage<C extends readonly (keyof Database['users'])[]>(
  db: Db,
  dialect: Dialect,
  filter: Filter & { page: number; size: number; exactTotal?: boolean },
  columns: C,
  options: { vip?: true } = {},
): Promise<{ rows: UserPageRow<C>[] } & Total> {
  // The VIP column (in the listed app, or any app's latest) comes with the page's own statement.
  const selected = options.vip ? [...columns, vipExpiryColumn(vipApps(filter))] : columns;
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  const offset = filter.page * filter.size;
  const segments = segmented(filter);
  // A tab or a segment (an app, a channel, dates) reads the search index's matches newest first
  // and tests each one's row: walking the tab's or the app's index and testing every user against
  // all the matches took 193 ms in a tab, and 0.2-7 s in an app at 1M users, also for one or two
  // letters (SQLite's FTS5 and PostgreSQL's nickname pieces hand their matches over in id order,
  // 1-30 ms). Not one or two digits on PostgreSQL, whose matches come from walking the users
  // (indexedMatches), nor VIP, another table's: they keep the general path.
  const narrow = indexedMatches(dialect, filter.search) !== undefined && !walksPhones(dialect, filter.search);
  const indexed = filter.search && filter.vip === undefined && (segments ? narrow : filter.status === 'all' || narrow);
  const parts = indexed ? indexedMatches(dialect, filter.search) : undefined;
  if (filter.search && parts) {
    const inTab = rowCondition(filter, 'u');
    // Sign-up order is id order unless accounts came in out of it (imported): then the matches are sorted by sign-up time.
    const byId = filter.sort === 'createdAt' && (await signUpsInIdOrder(db));
    if (
      dialect === 'postgres' &&
      !inTab &&
      narrowDigits(filter.search) &&
      byId &&
      !filter.exactTotal &&
      offset + filter.size <= EXACT_COUNT_LIMIT
    ) {
      const page = await narrowDigitsPage(
        db,
        filter.search,
        direction,
        offset,
        filter.size,
        columns,
        options.vip === true,
      );
      if (page) return page;
    }
    // Each part is tested on its own and the compound stays outermost: SQLite then merges the
    // parts' id order for the page. Testing the compound as a whole made it read and sort every
    // match first (one digit, also an id: 424 ms against 0.3 at 1M users).
    const matches = inTab
      ? union(
          parts.map(
            (part) => sql<{ id: number }>`select id from (${part}) as m
              where exists (select 1 from users as u where u.id = m.id and ${inTab})`,
          ),
        )
      : union(parts);
    const upTo = (first: number) => union(indexedMatches(dialect, filter.search, { direction, first }) ?? parts);
    const pageIds = byId
      ? // SQLite: ORDER BY on the compound itself merges the indexes' rowid order; PostgreSQL sorts only the first matches of each part.
        sql<number>`(${dialect === 'sqlite' || inTab ? matches : sql`select id from (${upTo(offset + filter.size)}) as m`}
            order by id ${sql.raw(direction)} limit ${filter.size} offset ${offset})`
      : undefined;
    let list = db.selectFrom('users').select(selected as C);
    list = pageIds
      ? list.where('id', 'in', pageIds).orderBy('id', direction)
      : list
          .where('id', 'in', sql<number>`(${matches})`)
          .orderBy(sortTerm(dialect, filter.sort, direction))
          .orderBy('id', direction)
          .limit(filter.size)
          .offset(offset);
    const [rows, total] = await Promise.all([
      list.execute(),
      filter.exactTotal
        ? countOf(db, matches)
        : inTab
          ? cappedCountOf(db, matches)
          : cappedMatchCount(db, dialect, filter.search, direction),
    ]);
    return { rows, ...total };
  }
  const base = filteredUsers(db, dialect, filter);
  const sort = sortTerm(dialect, filter.sort, direction);
  const ordered = <Q extends typeof base>(query: Q) => query.orderBy(sort).orderBy('users.id', direction);
  const whole = !filter.search && !segments;
  return listPage(db, dialect, {
    total: whole ? keptUserTotalName(filter.status) : () => countedTotal(db, base, filter.exactTotal),
    // The whole list by sign-up time: deep pages start from a remembered anchor (db/anchors.ts).
    anchors:
      whole && filter.status === 'all' && filter.sort === 'createdAt' ? `users.created_at.${direction}` : undefined,
    offset,
    page: ({ key, skip }) => {
      // A seek from the anchor along the (created_at, id) index: narrow whatever the key.
      const from = key
        ? base.where(
            sql<SqlBool>`${sql.raw(NARROW_RANGES)} (users.created_at, users.id) ${sql.raw(direction === 'desc' ? '<=' : '>=')} (${key[0]}, ${key[1]})`,
          )
        : base;
      // Deep pages: ids first, from the sort's (column, id) index alone; then only the page's rows are read.
      const rows =
        skip >= DEEP_PAGE_ROWS
          ? db.selectFrom('users').where('id', 'in', ordered(from).select('users.id').limit(filter.size).offset(skip))
          : from.limit(filter.size).offset(skip);
      return ordered(rows).select(selected as C);
    },
    keyOf: (row) => {
      const { created_at, id } = row as { created_at?: number; id?: number };
      return typeof created_at === 'number' && typeof id === 'number' ? [created_at, id] : undefined;
    },
  });
}

/** True while ids are in sign-up order (kept count of migration 202611281210 at 0). */
async function signUpsInIdOrder(db: Db): Promise<boolean> {
  return (await keptTotal(db, 'users.signup_out_of_order')).total === 0;
}

/**
 * PostgreSQL, five digits or more among all users, in sign-up order: the page and its capped
 * total in one statement, the matches counted beside the page's ids. Such a range holds a few dozen
 * users, so counting them all while ordering them costs nothing; a page and a count apart cost two
 * statements, each planned afresh for its digits (a range's plan depends on them), 0.19 ms of
 * planning for the page alone against 0.03 ms of running it. Undefined for a page past the matches,
 * which has no row to carry the total.
 */
async function narrowDigitsPage<C extends readonly (keyof Database['users'])[]>(
  db: Db,
  search: string,
  direction: 'asc' | 'desc',
  offset: number,
  size: number,
  columns: C,
  vip: boolean,
): Promise<({ rows: UserPageRow<C>[] } & Total) | undefined> {
  // Each part's first matches in the list's order: the page's rows are among them while the page
  // ends within the exact-count limit (the caller's condition).
  const parts = indexedMatches('postgres', search, { direction, first: EXACT_COUNT_LIMIT + 1 }) ?? [];
  const matches = sql<{
    id: number;
    matches: number;
  }>`(select id, count(*) over () as matches from (${union(parts)}) as x
    order by id ${sql.raw(direction)} limit ${size} offset ${offset})`;
  const rows = await db
    .selectFrom(matches.as('m'))
    .innerJoin('users', 'users.id', 'm.id')
    .select([...columns.map((c) => `users.${c}` as const), 'm.matches'])
    // Only among all users (no app chosen): the latest VIP expiry of any app.
    .$if(vip, (q) => q.select(vipExpiryColumn(undefined)))
    .orderBy('users.id', direction)
    .execute();
  if (rows.length === 0) return offset === 0 ? { rows: [], total: 0, totalExact: true } : undefined;
  const n = Number(rows[0].matches);
  const total =
    n > EXACT_COUNT_LIMIT ? { total: EXACT_COUNT_LIMIT, totalExact: false } : { total: n, totalExact: true };
  for (const row of rows as { matches?: unknown }[]) delete row.matches;
  return { rows: rows as UserPageRow<C>[], ...total };
}

async function countOf(db: Db, ids: RawBuilder<unknown>): Promise<Total> {
  const count = await sql<{ n: number }>`select count(*) as n from (${ids}) as c`.execute(db);
  return { total: Number(count.rows[0]?.n ?? 0), totalExact: true };
}

/**
 * How many users an indexed search matches, up to the exact-count limit. On PostgreSQL the first
 * part of a one- or two-character search (nickname pieces) is probed alone first: past the limit by itself, nothing needs counting
 * and the other parts need not be read nor merged. A walk of phones that stopped before the last user found "at least" its
 * matches, so that total is not exact.
 */
async function cappedMatchCount(db: Db, dialect: Dialect, search: string, direction: 'asc' | 'desc'): Promise<Total> {
  const walk = walksPhones(dialect, search) ? PHONE_WALK_ROWS : undefined;
  const parts = indexedMatches(dialect, search, { direction, first: EXACT_COUNT_LIMIT + 1, walk }) ?? [];
  if (dialect === 'postgres' && usesGrams(search)) {
    // A common piece has more matches than the limit: one probe down the nickname pieces, with
    // nothing to count or merge. (Digits have only their suffix range to count.)
    const past = await sql`select 1 from (${parts[0]}) as m offset ${EXACT_COUNT_LIMIT} limit 1`.execute(db);
    if (past.rows.length > 0) return { total: EXACT_COUNT_LIMIT, totalExact: false };
  }
  const [counted, users] = await Promise.all([
    cappedCountOf(db, union(parts)),
    walk ? keptTotal(db, 'users') : undefined,
  ]);
  return { ...counted, totalExact: counted.totalExact && (!users || users.total <= PHONE_WALK_ROWS) };
}

/** How many ids a query answers, counted up to the exact-count limit; past it the total says "more than". */
async function cappedCountOf(db: Db, ids: RawBuilder<unknown>): Promise<Total> {
  const cap = EXACT_COUNT_LIMIT + 1;
  const counted = await sql<{
    n: number;
  }>`select count(*) as n from (select 1 from (${ids}) as m limit ${cap}) as c`.execute(db);
  const n = Number(counted.rows[0]?.n ?? 0);
  return n >= cap ? { total: EXACT_COUNT_LIMIT, totalExact: false } : { total: n, totalExact: true };
}

/** A status tab as a condition on the users row named `row`, or undefined for every user. */
function statusCondition(status: Filter['status'], row: 'users' | 'u') {
  if (status === 'normal' || status === 'blocked') return sql<SqlBool>`${sql.ref(`${row}.status`)} = ${status}`;
  if (status === 'admin') return sql<SqlBool>`${sql.ref(`${row}.is_admin`)} = 1`;
  return undefined;
}

/**
 * The status tab and the segments read off the users row itself (channel, app, sign-up and
 * activity times; not VIP, which is another table's) as one condition on the row named `row`, or
 * undefined when there are none.
 */
function rowCondition(filter: Pick<Filter, 'status'> & Segments, row: 'users' | 'u') {
  const column = (name: string) => sql.ref(`${row}.${name}`);
  const terms: RawBuilder<SqlBool>[] = [];
  const tab = statusCondition(filter.status, row);
  if (tab) terms.push(tab);
  if (filter.channel) terms.push(sql<SqlBool>`${column('channel')} = ${filter.channel}`);
  if (filter.app) terms.push(sql<SqlBool>`${column('app')} = ${filter.app}`);
  if (filter.apps) terms.push(inScopeSql(`${row}.app`, filter.apps));
  const bounds = [
    ['created_at', '>=', ms(filter.from)],
    ['created_at', '<=', ms(filter.to)],
    ['last_active_at', '>=', ms(filter.activeFrom)],
    ['last_active_at', '<=', ms(filter.activeTo)],
  ] as const;
  for (const [name, op, time] of bounds) {
    if (time !== undefined) terms.push(sql<SqlBool>`${column(name)} ${sql.raw(op)} ${time}`);
  }
  return terms.length === 0 ? undefined : (sql.join(terms, sql` and `) as RawBuilder<SqlBool>);
}

/** Which kept counts give a status tab's total: all users less the blocked ones for 正常. */
function keptUserTotalName(status: Filter['status']): { kept: string; minus?: string } {
  if (status === 'blocked') return { kept: 'users.blocked' };
  if (status === 'admin') return { kept: 'users.admin' };
  return status === 'normal' ? { kept: 'users', minus: 'users.blocked' } : { kept: 'users' };
}

/** The total of a status tab, from the counts the database keeps. */
export function keptUserTotal(db: Db, status: Filter['status']): Promise<Total> {
  const { kept, minus } = keptUserTotalName(status);
  return keptTotal(db, kept, minus);
}
