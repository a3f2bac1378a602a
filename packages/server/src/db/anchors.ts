import type { Kysely } from 'kysely';
import { DEEP_PAGE_ROWS, type Total } from './paging';
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
export function pageAnchors(db: Kysely<Database>, list: string, version: number) {
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

export type PageAnchors = ReturnType<typeof pageAnchors>;

/** Where a page at `offset` starts: the nearest anchor's key (if any) and the rows left to skip from it. */
export function startOf(anchors: PageAnchors | null, offset: number): { key?: AnchorKey; skip: number } {
  const anchor = anchors?.before(offset);
  return anchor ? { key: anchor.key, skip: offset - anchor.offset } : { skip: offset };
}

/**
 * Where a page of a list in id order (the append-only ledger and log) starts: from a remembered
 * anchor when the whole list is paged deep (`anchored`), and how to remember this page's.
 */
export async function idOrderStart(
  db: Kysely<Database>,
  list: string,
  options: { anchored: boolean; total: Promise<Total>; offset: number },
) {
  const anchors =
    options.anchored && options.offset >= DEEP_PAGE_ROWS ? pageAnchors(db, list, (await options.total).total) : null;
  return {
    ...startOf(anchors, options.offset),
    remember(firstId: number | undefined) {
      if (anchors && firstId !== undefined) anchors.remember(options.offset, [firstId, firstId]);
    },
  };
}
