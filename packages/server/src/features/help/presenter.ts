import type { Selectable } from 'kysely';
import { markdownExcerpt } from '../../core/markdown';
import { iso } from '../../db/paging';
import type { HelpArticlesTable } from './tables';

type Row = Selectable<HelpArticlesTable>;

/** An article as operators edit it. */
export function presentArticle(row: Row) {
  return {
    id: row.id,
    app: row.app,
    title: row.title,
    category: row.category,
    sort: row.sort,
    published: row.published === 1,
    content: row.content,
    html: row.html,
    authorId: row.author_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A line of the operators' list: the body shortened to plain text. */
export function presentArticleRow(row: Row) {
  const { content: _content, html: _html, ...rest } = presentArticle(row);
  return { ...rest, excerpt: markdownExcerpt(row.content) };
}

/** A published article as the apps show it: HTML only, no editing details. */
export function presentPublished(row: Row) {
  const { id, app, title, category, sort, html, updatedAt } = presentArticle(row);
  return { id, app, title, category, sort, html, updatedAt };
}
