import type { unsplashEndpoints } from '@appdesk/contract/endpoints/unsplash';
import { type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import { compiledOnce } from '../../db/compiled';
import type { Db } from '../../db/index';
import { containsText, DEEP_PAGE_ROWS, escapeLike, iso } from '../../db/paging';
import { fail } from '../../http/errors';
import type { ImagesTable } from './tables';

type PageFilter = z.output<(typeof unsplashEndpoints)['/api/unsplash/fetch/page']['input']>;
type Row = Selectable<ImagesTable>;

const sortColumn = { createdAt: 'id', sort: 'sort', size: 'size' } as const;

/** Tags as stored: `,a,b,` (a single `,` when there are none). */
export const storedTags = (tags: string[]) => `,${tags.join(',')}${tags.length ? ',' : ''}`;
const tagList = (stored: string) => stored.split(',').filter(Boolean);

export function filteredImages(db: Db, filter: Omit<PageFilter, 'page' | 'size' | 'sort' | 'order'>) {
  let query = db.selectFrom('images');
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled ? 1 : 0);
  if (filter.tag) query = query.where(sql<boolean>`tags like ${`%,${escapeLike(filter.tag)},%`} escape '\\'`);
  if (filter.search) query = query.where(containsText(['name', 'author'], filter.search));
  return query;
}

/** One page in the chosen order; the id breaks ties so pages never overlap. */
export function orderedImages(db: Db, filter: PageFilter) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  return filteredImages(db, filter).selectAll().orderBy(sortColumn[filter.sort], direction).orderBy('id', direction);
}

export async function loadImage(db: Db, id: number) {
  const row = await db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('图片不存在');
  return row;
}

/** The image already holding these bytes, if any (the oldest, should two have been kept before). */
export const imageBySha = (db: Db, sha256: string) =>
  db.selectFrom('images').selectAll().where('sha256', '=', sha256).orderBy('id').executeTakeFirst();

export async function loadImages(db: Db, ids: number[]) {
  const rows = await db.selectFrom('images').selectAll().where('id', 'in', ids).orderBy('id').execute();
  if (rows.length !== new Set(ids).size) throw fail.notFound('部分图片不存在，请刷新列表后重试');
  return rows;
}

export function presentImage(row: Row) {
  return {
    id: row.id,
    name: row.name,
    url: `/files/${row.file_key}`,
    thumbUrl: `/files/${row.thumb_key}`,
    width: row.width,
    height: row.height,
    size: Number(row.size),
    mime: row.mime,
    category: row.category,
    tags: tagList(row.tags),
    author: row.author,
    sourceUrl: row.source_url,
    sort: row.sort,
    enabled: row.enabled === 1,
    fileId: row.file_id,
    createdAt: iso(Number(row.created_at)),
    updatedAt: iso(Number(row.updated_at)),
  };
}

/** Categories in use with their image counts, and every tag in use, for the filters and editors. */
export async function categoriesAndTags(db: Db) {
  const [categories, tagRows] = await Promise.all([
    db
      .selectFrom('images')
      .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('category')
      .orderBy('category')
      .execute(),
    db.selectFrom('images').select('tags').distinct().where('tags', '!=', ',').limit(5000).execute(),
  ]);
  const tags = [...new Set(tagRows.flatMap((r) => tagList(r.tags)))].sort((a, b) => a.localeCompare(b, 'zh-CN'));
  return { categories: categories.map((c) => ({ name: c.category, count: Number(c.n) })), tags };
}

type AppOrder = 'newest' | 'sort';
const appColumns = [
  'id',
  'name',
  'file_key',
  'thumb_key',
  'width',
  'height',
  'category',
  'tags',
  'author',
  'source_url',
] as const;

function appQuery(db: Db, order: AppOrder, category: string | null, limit: number, offset: number) {
  let query = db.selectFrom('images').select(appColumns).where('enabled', '=', 1);
  if (category !== null) query = query.where('category', '=', category);
  query = order === 'sort' ? query.orderBy('sort').orderBy('id', 'desc') : query.orderBy('id', 'desc');
  return query.limit(limit).offset(offset);
}

/**
 * The apps' hot read, compiled once per shape (order, with or without a category); pages within
 * the first DEEP_PAGE_ROWS rows walk a bounded stretch of an index and run on SQLite's main-thread
 * reader, deeper ones on the pool.
 */
const appReads = new Map<string, (db: Db, ...args: (string | number)[]) => Promise<AppImageRow[]>>();
function appRead(order: AppOrder, withCategory: boolean, bounded: boolean) {
  const key = `${order}:${withCategory}:${bounded}`;
  let read = appReads.get(key);
  if (!read) {
    read = compiledOnce(
      (db: Db, ...args: (string | number)[]) =>
        withCategory
          ? appQuery(db, order, args[0] as string, args[1] as number, args[2] as number)
          : appQuery(db, order, null, args[0] as number, args[1] as number),
      { pointRead: bounded },
    ) as (db: Db, ...args: (string | number)[]) => Promise<AppImageRow[]>;
    appReads.set(key, read);
  }
  return read;
}
type AppImageRow = Awaited<ReturnType<ReturnType<typeof appQuery>['execute']>>[number];

/** The apps' call: one page of a category's enabled images, one row more to tell whether more follow. */
export function appImages(db: Db, input: { category?: string; page: number; size: number; order: AppOrder }) {
  const offset = input.page * input.size;
  const read = appRead(input.order, input.category !== undefined, offset < DEEP_PAGE_ROWS);
  const window = [input.size + 1, offset];
  return input.category === undefined ? read(db, ...window) : read(db, input.category, ...window);
}

export function presentAppImage(row: AppImageRow) {
  return {
    id: row.id,
    name: row.name,
    url: `/files/${row.file_key}`,
    thumbUrl: `/files/${row.thumb_key}`,
    width: row.width,
    height: row.height,
    category: row.category,
    tags: tagList(row.tags),
    author: row.author,
    sourceUrl: row.source_url,
  };
}
