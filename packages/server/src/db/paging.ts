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
export function shanghaiTime(ms: number | null): string {
  return ms === null
    ? ''
    : iso(ms + 8 * 3600_000)
        .slice(0, 16)
        .replace('T', ' ');
}

/** Text with LIKE's wildcards taken literally; pair with ESCAPE '\\' (PostgreSQL's default, SQLite's on request). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
