import type { unsplashEndpoints } from '@appdesk/contract/endpoints/unsplash';
import { type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { containsText, escapeLike, iso } from '../../db/paging';
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

/** The apps' call: one page of a category's enabled images, one row more to tell whether more follow. */
export function appImages(db: Db, input: { category?: string; page: number; size: number; order: 'newest' | 'sort' }) {
  let query = db
    .selectFrom('images')
    .select(['id', 'name', 'file_key', 'thumb_key', 'width', 'height', 'category', 'tags', 'author', 'source_url'])
    .where('enabled', '=', 1);
  if (input.category !== undefined) query = query.where('category', '=', input.category);
  query = input.order === 'sort' ? query.orderBy('sort').orderBy('id', 'desc') : query.orderBy('id', 'desc');
  return query
    .limit(input.size + 1)
    .offset(input.page * input.size)
    .execute();
}

export function presentAppImage(row: Awaited<ReturnType<typeof appImages>>[number]) {
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
