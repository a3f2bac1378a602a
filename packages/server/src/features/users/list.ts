import type { UserListFilter } from '@appdesk/contract/endpoints/users';
import { type ExpressionBuilder, type RawBuilder, type Selectable, sql } from 'kysely';
import { pageAnchors, startOf } from '../../db/anchors';
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
import type { Database } from '../../db/schema';

type Filter = Required<Omit<UserListFilter, 'order'>> & { order?: 'ascend' | 'descend' };

const sortColumn = { createdAt: 'created_at', lastActiveAt: 'last_active_at', coins: 'coins' } as const;

const idLike = (search: string) => (/^\d{1,9}$/.test(search) ? Number(search) : undefined);
const usesTrigrams = (search: string) => [...search].length >= 3;
/** One or two letters or digits: a piece of a nickname or phone, found through the short-search index (migration 0005). */
const usesGrams = (search: string) => !usesTrigrams(search) && /^[\p{L}\p{N}]+$/u.test(search);

/**
 * SQLite: the ids whose phone or nickname contains the text (FTS5 trigram index; one or two
 * characters: the index of their pieces), plus the id typed, as one set the database never has to
 * join to count. The text is a quoted phrase with inner quotes doubled, so it is never FTS syntax.
 */
function sqliteMatches(search: string): RawBuilder<{ id: number }> {
  const phrase = `"${search.toLowerCase().replaceAll('"', '""')}"`;
  const matches = usesGrams(search)
    ? sql<{ id: number }>`select rowid as id from users_grams where users_grams match ${phrase}`
    : sql<{ id: number }>`select rowid as id from users_search where users_search match ${phrase}`;
  const id = idLike(search);
  return id === undefined ? matches : sql<{ id: number }>`${matches} union select id from users where id = ${id}`;
}

/** Searches the SQLite path answers from its full-text indexes alone. */
const sqliteIndexed = (search: string) => usesTrigrams(search) || usesGrams(search);

/**
 * The search condition: an exact id, and phone or nickname containing the text. Substring
 * search uses the trigram index of each database (FTS5 trigram on SQLite, pg_trgm on
 * PostgreSQL), which needs three characters; one or two letters or digits match anywhere in a
 * nickname or phone through the index of their pieces.
 */
function searchCondition(dialect: Dialect, search: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) => {
    const ors = [];
    const id = idLike(search);
    if (dialect === 'sqlite' && sqliteIndexed(search)) {
      return eb('users.id', 'in', sql<number>`(${sqliteMatches(search)})`);
    }
    if (usesTrigrams(search)) {
      const pattern = `%${escapeLike(search)}%`;
      ors.push(eb('users.phone', 'like', pattern), eb('users.nickname', 'like', pattern));
    } else if (usesGrams(search)) {
      // PostgreSQL: the GIN index on the pieces of nickname and phone (migration 0005).
      const pieces = sql`appdesk_grams(users.nickname || ' ' || users.phone)`;
      ors.push(eb(pieces, '@>', sql`array[${search.toLowerCase()}]::text[]`));
    } else {
      // One or two characters that are not letters or digits: a scan, bounded by the page and the count limit.
      ors.push(containsText(['users.phone', 'users.nickname'], search)(eb));
    }
    if (id !== undefined) ors.push(eb('users.id', '=', id));
    return eb.or(ors);
  };
}

/** The users matching a list filter, unordered: callers add select, order and limits. */
export function filteredUsers(db: Db, dialect: Dialect, filter: Pick<Filter, 'status' | 'search'>) {
  let query = db.selectFrom('users');
  if (filter.status === 'normal' || filter.status === 'blocked') query = query.where('status', '=', filter.status);
  if (filter.status === 'admin') query = query.where('is_admin', '=', 1);
  if (filter.search) query = query.where(searchCondition(dialect, filter.search));
  return query;
}

/**
 * One page of users and the total. The common operator search (any status, newest first) on
 * SQLite pages through the trigram matches by id and counts them without touching the users
 * table: ids are issued in sign-up order, so id order is sign-up order.
 */
export async function userPage<C extends readonly (keyof Database['users'])[]>(
  db: Db,
  dialect: Dialect,
  filter: Filter & { page: number; size: number; exactTotal?: boolean },
  columns: C,
): Promise<{ rows: Pick<Selectable<Database['users']>, C[number]>[] } & Total> {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  const offset = filter.page * filter.size;
  if (dialect === 'sqlite' && filter.search && sqliteIndexed(filter.search) && filter.status === 'all') {
    const matches = sqliteMatches(filter.search);
    const pageIds =
      filter.sort === 'createdAt'
        ? // ORDER BY on the compound itself: SQLite merges the index's rowid order instead of sorting every match.
          sql<number>`(${matches} order by id ${sql.raw(direction)} limit ${filter.size} offset ${offset})`
        : undefined;
    let list = db.selectFrom('users').select(columns);
    list = pageIds
      ? list.where('id', 'in', pageIds).orderBy('id', direction)
      : list
          .where('id', 'in', sql<number>`(${matches})`)
          .orderBy(sortColumn[filter.sort], direction)
          .orderBy('id', direction)
          .limit(filter.size)
          .offset(offset);
    const counted = filter.exactTotal ? matches : sql`select 1 from (${matches}) limit ${EXACT_COUNT_LIMIT + 1}`;
    const [rows, count] = await Promise.all([
      list.execute(),
      sql<{ n: number }>`select count(*) as n from (${counted})`.execute(db),
    ]);
    const n = Number(count.rows[0]?.n ?? 0);
    const exact = filter.exactTotal || n <= EXACT_COUNT_LIMIT;
    return { rows, total: exact ? n : EXACT_COUNT_LIMIT, totalExact: exact };
  }
  const base = filteredUsers(db, dialect, filter);
  const sort = sortColumn[filter.sort];
  const ordered = <Q extends typeof base>(query: Q) => query.orderBy(sort, direction).orderBy('users.id', direction);
  if (offset >= DEEP_PAGE_ROWS && !filter.search && filter.status === 'all' && filter.sort === 'createdAt') {
    // The whole list by sign-up time: deep pages start from a remembered anchor (db/anchors.ts).
    const total = await keptUserTotal(db, 'all');
    const anchors = pageAnchors(db, `users.created_at.${direction}`, total.total);
    const { key, skip } = startOf(anchors, offset);
    const from = key
      ? base.where((eb) =>
          eb(eb.refTuple('users.created_at', 'users.id'), direction === 'desc' ? '<=' : '>=', eb.tuple(...key)),
        )
      : base;
    const rows =
      skip >= DEEP_PAGE_ROWS
        ? db.selectFrom('users').where('id', 'in', ordered(from).select('users.id').limit(filter.size).offset(skip))
        : from.limit(filter.size).offset(skip);
    const list = await ordered(rows).select(columns).execute();
    const first = list[0] as { created_at: number; id: number } | undefined;
    if (typeof first?.created_at === 'number') anchors.remember(offset, [first.created_at, first.id]);
    return { rows: list, ...total };
  }
  // Deep pages: ids first, from the sort's (column, id) index alone; then only the page's rows are read.
  const rows =
    offset >= DEEP_PAGE_ROWS
      ? db.selectFrom('users').where('id', 'in', ordered(base).select('users.id').limit(filter.size).offset(offset))
      : base.limit(filter.size).offset(offset);
  const [list, total] = await Promise.all([
    ordered(rows).select(columns).execute(),
    filter.search ? countedTotal(db, base, filter.exactTotal) : keptUserTotal(db, filter.status),
  ]);
  return { rows: list, ...total };
}

/** The total of a status tab, from the counts the database keeps. */
export function keptUserTotal(db: Db, status: Filter['status']): Promise<Total> {
  if (status === 'blocked') return keptTotal(db, 'users.blocked');
  if (status === 'admin') return keptTotal(db, 'users.admin');
  return status === 'normal' ? keptTotal(db, 'users', 'users.blocked') : keptTotal(db, 'users');
}
