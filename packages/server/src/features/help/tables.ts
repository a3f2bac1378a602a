import type { Generated } from 'kysely';

/** help_articles: Markdown and the sanitised HTML rendered from it when saved (reads never render). */
export interface HelpArticlesTable {
  id: Generated<number>;
  app: string;
  title: string;
  category: string;
  /** Smaller first within a category. */
  sort: number;
  published: number;
  content: string;
  html: string;
  author_id: number | null;
  created_at: number;
  updated_at: number;
}

declare module '../../db/schema' {
  interface Database {
    help_articles: HelpArticlesTable;
  }
}
