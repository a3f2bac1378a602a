import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from './index';
import { DEEP_PAGE_ROWS, keptTotal, type Total } from './paging';
import type { Database } from './schema';

/** The sort key of the row that starts a page: its sort column's value, then its id. */
export type AnchorKey = readonly [number, number];

interface ListAnchors {
  version: number;
  offsets: Map<number, AnchorKey>;
}

const MAX_LISTS = 200;
const MAX_ANCHORS_PER_LIST = 1000;
const byDatabase = new WeakMap<object, Map<string, ListAnchors>>();

/**
 * Remembered page anchors, so a deep page costs about what the first does: after a list served
 * rows from `offset`, the first row's sort key is kept, and the same or a later page seeks to it
 * through the index instead of stepping over every row before it. An anchor holds while `version`
 * (the list's kept row count) is unchanged: an insert or a delete moves every page and drops
 * them all. Only for lists whose sort keys never change (sign-up time, id). Per process; memory
 * is bounded (200 lists × 1,000 anchors).
 */
function pageAnchors(db: Kysely<Database>, list: string, version: number) {
  let lists = byDatabase.get(db);
  if (!lists) {
    lists = new Map();
    byDatabase.set(db, lists);
  }
  let entry = lists.get(list);
  if (!entry || entry.version !== version) {
    lists.delete(list);
    if (lists.size >= MAX_LISTS) lists.delete(lists.keys().next().value as string);
    entry = { version, offsets: new Map() };
    lists.set(list, entry);
  }
  const { offsets } = entry;
  return {
    /** The nearest remembered anchor at or before `offset`. */
    before(offset: number): { offset: number; key: AnchorKey } | undefined {
      let best: { offset: number; key: AnchorKey } | undefined;
      for (const [at, key] of offsets) if (at <= offset && (!best || at > best.offset)) best = { offset: at, key };
      return best;
    },
    remember(offset: number, key: AnchorKey) {
      if (offsets.size >= MAX_ANCHORS_PER_LIST) offsets.delete(offsets.keys().next().value as number);
      offsets.set(offset, key);
    },
  };
}

type PageAnchors = ReturnType<typeof pageAnchors>;

/** Where a page at `offset` starts: the nearest anchor's key (if any) and the rows left to skip from it. */
function startOf(anchors: PageAnchors | null, offset: number): { key?: AnchorKey; skip: number } {
  const anchor = anchors?.before(offset);
  return anchor ? { key: anchor.key, skip: offset - anchor.offset } : { skip: offset };
}

/** Where a page starts: after a remembered anchor's key (if any), skipping `skip` rows. */
type PageStart = { key?: AnchorKey; skip: number };

/** A page's query: rows of `Row`, to which a column may be added. */
// biome-ignore lint/suspicious/noExplicitAny: any tables; only select() and execute() are used
type PageQuery<Row> = SelectQueryBuilder<any, any, Row>;

/** The last kept total each list's page was served with on PostgreSQL: the anchors' version, guessed. */
const lastKept = new WeakMap<object, Map<string, number>>();

/** A kept total as a column of a page's own statement (PostgreSQL). */
function keptColumn(name: string, minus?: string) {
  return minus
    ? sql<number>`(select coalesce(sum(case when name = ${name} then n else -n end), 0) from row_counts where name in (${name}, ${minus}))`
    : sql<number>`(select n from row_counts where name = ${name})`;
}

/**
 * One page of a list and its total, the shared list layer's one way to serve a page.
 *
 * `total` is either the name of a count the database keeps (the whole list, or a status tab: with
 * `minus`, the difference of two) or how to count a filtered list. A kept total costs no counting;
 * on PostgreSQL it rides in the page's own statement, because each statement costs Node about
 * 55 µs of protocol work and PostgreSQL a round trip of its own, more than the count itself.
 *
 * With `anchors` (a whole list whose sort keys never change), a deep page starts from the nearest
 * remembered anchor (`keyOf` of each page's first row), whose version is the kept total. On SQLite
 * the total is read first (a point read on the main thread). On PostgreSQL the version is the total
 * of the previous page, checked against the one the page's statement returns: when rows came or
 * went meanwhile, the anchors are dropped and the page is read again by its offset. A page past
 * the last one reads no rows.
 */
export async function listPage<Row>(
  db: Kysely<Database>,
  dialect: Dialect,
  options: {
    total: { kept: string; minus?: string } | (() => Promise<Total>);
    anchors?: string;
    offset: number;
    page: (start: PageStart) => PageQuery<Row>;
    keyOf?: (row: Row) => AnchorKey | undefined;
  },
): Promise<{ rows: Row[] } & Total> {
  const { total, offset, page } = options;
  if (typeof total === 'function') {
    const [rows, counted] = await Promise.all([page({ skip: offset }).execute(), total()]);
    return { rows, ...counted };
  }
  const deep = options.anchors !== undefined && offset >= DEEP_PAGE_ROWS;
  const remember = (version: number, rows: Row[]) => {
    const key = rows[0] === undefined ? undefined : options.keyOf?.(rows[0]);
    if (deep && key) pageAnchors(db, options.anchors as string, version).remember(offset, key);
  };
  const readKept = () => keptTotal(db, total.kept, total.minus);
  if (dialect === 'sqlite') {
    const kept = await readKept();
    // Past the last page: nothing to read (an index walked to its end found nothing, slowly).
    if (offset >= kept.total) return { rows: [], ...kept };
    const start = deep ? startOf(pageAnchors(db, options.anchors as string, kept.total), offset) : { skip: offset };
    const rows = await page(start).execute();
    remember(kept.total, rows);
    return { rows, ...kept };
  }
  let seen = lastKept.get(db);
  if (!seen) {
    seen = new Map();
    lastKept.set(db, seen);
  }
  const list = `${total.kept}-${total.minus ?? ''}`;
  let guess = seen.get(list);
  if (guess !== undefined && offset >= guess) {
    // Past the last page the last time: ask the total alone, and read no rows if it still is.
    const kept = await readKept();
    seen.set(list, kept.total);
    if (offset >= kept.total) return { rows: [], ...kept };
    guess = kept.total;
  }
  const start =
    deep && guess !== undefined ? startOf(pageAnchors(db, options.anchors as string, guess), offset) : { skip: offset };
  const withTotal = (await page(start)
    .select(keptColumn(total.kept, total.minus).as('kept_total'))
    .execute()) as (Row & { kept_total?: number | string })[];
  // Past the last page there is no row to carry the total.
  const kept = withTotal.length > 0 ? Number(withTotal[0]?.kept_total) : (await readKept()).total;
  for (const row of withTotal) delete row.kept_total;
  seen.set(list, kept);
  let rows: Row[] = withTotal;
  if (start.key !== undefined && kept !== guess) rows = await page({ skip: offset }).execute();
  remember(kept, rows);
  return { rows, total: kept, totalExact: true };
}
