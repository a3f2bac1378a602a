import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** images (图片库): one uploaded image each, with its thumbnail and what the apps filter by. */
export interface ImagesTable {
  id: Generated<number>;
  /** The original's row in `files` (the uploads page shows it as used by the library). */
  file_id: number;
  file_key: string;
  /** The original's SHA-256: the same bytes uploaded again answer this image. */
  sha256: string;
  /** The WebP thumbnail the server made (longest side 480 px); not a `files` row of its own. */
  thumb_key: string;
  name: string;
  width: number;
  height: number;
  size: number;
  mime: string;
  category: string;
  /** Tags as `,a,b,` so one tag is matched with LIKE '%,a,%'. */
  tags: string;
  author: string;
  source_url: string;
  sort: number;
  enabled: number;
  uploader_id: number | null;
  created_at: number;
  updated_at: number;
}

/** The unsplash feature's own tables: its database type (UnsplashDb) is these and the core ones (db/schema.ts). */
export interface UnsplashTables {
  images: ImagesTable;
}

export type UnsplashDb = FeatureDb<UnsplashTables>;

declare module '../../db/schema' {
  interface Database extends UnsplashTables {}
}
