import type { FeatureDb } from '../../db/index';

/** pending_uploads: keys of objects being written by an upload that has not committed yet (storage/pending.ts). */
export interface PendingUploadsTable {
  key: string;
  started_at: number;
}

/** The files feature's own tables: its database type (FilesDb) is these and the core ones (db/schema.ts). */
export interface FilesTables {
  pending_uploads: PendingUploadsTable;
}

export type FilesDb = FeatureDb<FilesTables>;

declare module '../../db/schema' {
  interface Database extends FilesTables {}
}
