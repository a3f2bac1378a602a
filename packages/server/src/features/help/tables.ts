import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

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

/** The help feature's own tables: its database type (HelpDb) is these and the core ones (db/schema.ts). */
export interface HelpTables {
  help_articles: HelpArticlesTable;
}

export type HelpDb = FeatureDb<HelpTables>;

declare module '../../db/schema' {
  interface Database extends HelpTables {}
}
