import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { compiledOnce } from './compiled';
import type { Database } from './schema';

/** A list's total: exact, or (past EXACT_COUNT_LIMIT, unless asked) a lower bound the page says is one. */
export interface Total {
  total: number;
  totalExact: boolean;
}

/** Counting stops here: a filtered total beyond it is shown as "10,000+" with the exact figure on demand. */
export const EXACT_COUNT_LIMIT = 10_000;

/** From this many skipped rows on, a page finds its ids from the index first (shallower pages read rows directly). */
export const DEEP_PAGE_ROWS = 1_000;

/**
 * A total the database keeps (row_counts, maintained by triggers): no rows are counted. With
 * `minus`, the difference of two kept counts (all users less the blocked ones).
 */
export async function keptTotal(db: Kysely<Database>, name: string, minus?: string): Promise<Total> {
  const rows = await (minus ? keptCounts(db, name, minus) : keptCount(db, name));
  const n = (wanted: string | undefined) => Number(rows.find((r) => r.name === wanted)?.n ?? 0);
  return { total: n(name) - (minus ? n(minus) : 0), totalExact: true };
}

// Asked on nearly every list call, so compiled once.
const keptCount = compiledOnce(
  (db: Kysely<Database>, name: string) => db.selectFrom('row_counts').select(['name', 'n']).where('name', '=', name),
  { pointRead: true },
);
const keptCounts = compiledOnce(
  (db: Kysely<Database>, name: string, other: string) =>
    db.selectFrom('row_counts').select(['name', 'n']).where('name', 'in', [name, other]),
  { pointRead: true },
);

/** How many rows `filtered` matches: counted up to EXACT_COUNT_LIMIT, or all the way when `exact`. */
export async function countedTotal<DB, TB extends keyof DB>(
  db: Kysely<Database>,
  filtered: SelectQueryBuilder<DB, TB, object>,
  exact = false,
): Promise<Total> {
  if (exact) {
    const row = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { total: Number((row as { n: number | string }).n), totalExact: true };
  }
  const bounded = filtered.select(sql<number>`1`.as('one')).limit(EXACT_COUNT_LIMIT + 1);
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (${bounded}) as t`.execute(db);
  const n = Number(rows[0]?.n ?? 0);
  return n <= EXACT_COUNT_LIMIT ? { total: n, totalExact: true } : { total: EXACT_COUNT_LIMIT, totalExact: false };
}

/** One page of `list` (already selected and ordered) and its total, queried together. */
export async function pageOf<R>(
  list: { limit(n: number): { offset(n: number): { execute(): Promise<R[]> } } },
  total: Promise<Total>,
  page: number,
  size: number,
): Promise<{ rows: R[] } & Total> {
  const [rows, counted] = await Promise.all([
    list
      .limit(size)
      .offset(page * size)
      .execute(),
    total,
  ]);
  return { rows, ...counted };
}

/** Time-range filters arrive as ISO strings; the database holds epoch milliseconds. */
export function rangeMs(range: { from?: string; to?: string }): { from?: number; to?: number } {
  return {
    from: range.from ? Date.parse(range.from) : undefined,
    to: range.to ? Date.parse(range.to) : undefined,
  };
}

/** The paged-list answer every `fetch/page` gives (docs/architecture.md#lists): page counts from 0. */
export function pageAnswer<T>(list: T[], total: Total, page: number, size: number) {
  return { list, total: total.total, totalExact: total.totalExact, page, size };
}

export const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
export const iso = (ms: number) => new Date(ms).toISOString();

/** 'YYYY-MM-DD HH:mm' in Asia/Shanghai (UTC+8, no daylight saving), for spreadsheets. */
export function shanghaiTime(time: number | string | null): string {
  if (time === null) return '';
  const ms = typeof time === 'string' ? Date.parse(time) : time;
  return iso(ms + 8 * 3600_000)
    .slice(0, 16)
    .replace('T', ' ');
}

/** Text with LIKE's wildcards taken literally; pair with ESCAPE '\\' (PostgreSQL's default, SQLite's on request). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Rows where any of `columns` contains `text` (a LIKE scan: for small tables such as messages or
 * help articles; large ones search through an index).
 */
export function containsText(columns: readonly string[], text: string) {
  const pattern = sql<string>`${`%${escapeLike(text)}%`} escape '\\'`;
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.or(columns.map((column) => eb(sql.ref<string>(column), 'like', pattern)));
}
