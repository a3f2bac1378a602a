/** pending_uploads: keys of objects being written by an upload that has not committed yet (storage/pending.ts). */
export interface PendingUploadsTable {
  key: string;
  started_at: number;
}

declare module '../../db/schema' {
  interface Database {
    pending_uploads: PendingUploadsTable;
  }
}
