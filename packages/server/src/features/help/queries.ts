import type { helpEndpoints } from '@appdesk/contract/endpoints/help';
import type { z } from 'zod';
import { renderMarkdown } from '../../core/markdown';
import type { Db } from '../../db/index';
import { containsText } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';

type PageFilter = z.output<(typeof helpEndpoints)['/api/help/fetch/page']['input']>;
type NewArticle = z.output<(typeof helpEndpoints)['/api/help/make']['input']>;
type ArticleChanges = Omit<z.output<(typeof helpEndpoints)['/api/help/update']['input']>, 'id'>;

const sortColumn = { sort: 'sort', updatedAt: 'updated_at', createdAt: 'created_at' } as const;

type Filter = Omit<PageFilter, 'page' | 'size' | 'sort' | 'order' | 'app'> & { apps?: AppScope };

export function filteredArticles(db: Db, filter: Filter) {
  let query = db.selectFrom('help_articles');
  if (filter.apps) query = query.where(inScope('help_articles.app', filter.apps));
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.published !== undefined) query = query.where('published', '=', filter.published ? 1 : 0);
  if (filter.search) query = query.where(containsText(['title', 'content'], filter.search));
  return query;
}

/** One page in the chosen order; the id breaks ties so pages never overlap. */
export function orderedArticles(db: Db, filter: Filter & Pick<PageFilter, 'sort' | 'order'>) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  return filteredArticles(db, filter).orderBy(sortColumn[filter.sort], direction).orderBy('id', direction);
}

export async function loadArticle(db: Db, id: number) {
  const row = await db.selectFrom('help_articles').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('帮助文章不存在');
  return row;
}

export async function insertArticle(db: Db, article: NewArticle, authorId: number) {
  const now = Date.now();
  const { id } = await db
    .insertInto('help_articles')
    .values({
      app: article.app,
      title: article.title,
      category: article.category,
      sort: article.sort,
      published: article.published ? 1 : 0,
      content: article.content,
      html: renderMarkdown(article.content),
      author_id: authorId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return loadArticle(db, id);
}

/** Changes only the fields given; the HTML is rendered again when the Markdown changes. */
export async function updateArticle(db: Db, id: number, changes: ArticleChanges & { published?: boolean }) {
  const { published, content, ...rest } = changes;
  await db
    .updateTable('help_articles')
    .set({
      ...rest,
      ...(published === undefined ? {} : { published: published ? 1 : 0 }),
      ...(content === undefined ? {} : { content, html: renderMarkdown(content) }),
      updated_at: Date.now(),
    })
    .where('id', '=', id)
    .execute();
  return loadArticle(db, id);
}

/** The categories in use, for the editor's suggestions and the apps' tabs. */
export async function categoriesOf(db: Db, filter: { apps?: AppScope; publishedOnly?: boolean }) {
  let query = db.selectFrom('help_articles').select('category').distinct().where('category', '!=', '');
  if (filter.apps) query = query.where(inScope('help_articles.app', filter.apps));
  if (filter.publishedOnly) query = query.where('published', '=', 1);
  const rows = await query.orderBy('category').execute();
  return rows.map((r) => r.category);
}
