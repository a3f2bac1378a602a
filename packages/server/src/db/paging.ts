import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';

/**
 * One page of `list` (already selected and ordered) and the number of rows `filtered` matches,
 * queried together. `filtered` is the same query before select and order, so the total counts
 * exactly what the pages walk through.
 */
export async function pageOf<R, DB, TB extends keyof DB>(
  list: { limit(n: number): { offset(n: number): { execute(): Promise<R[]> } } },
  filtered: SelectQueryBuilder<DB, TB, object>,
  page: number,
  size: number,
): Promise<{ rows: R[]; total: number }> {
  const [rows, count] = await Promise.all([
    list
      .limit(size)
      .offset(page * size)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number((count as { n: number | string }).n) };
}

/** Time-range filters arrive as ISO strings; the database holds epoch milliseconds. */
export function rangeMs(range: { from?: string; to?: string }): { from?: number; to?: number } {
  return {
    from: range.from ? Date.parse(range.from) : undefined,
    to: range.to ? Date.parse(range.to) : undefined,
  };
}

/** The paged-list answer every `fetch/page` gives (DESIGN.md): page counts from 0. */
export function pageAnswer<T>(list: T[], total: number | string | bigint, page: number, size: number) {
  return { list, total: Number(total), page, size };
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
