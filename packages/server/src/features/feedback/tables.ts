import type { FeedbackStatus } from '@appdesk/contract/constants';
import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** feedback (意见反馈 v1): one submission from an app, and the operator's answer. */
export interface FeedbackTable {
  id: Generated<number>;
  app: string;
  /** The signed-in author; null when sent without signing in (then `contact` is set). */
  user_id: number | null;
  content: string;
  contact: string;
  app_version: string;
  channel: string;
  device_model: string;
  os_version: string;
  device_id: string;
  status: FeedbackStatus;
  reply: string | null;
  replied_at: number | null;
  /** The operator who replied or marked it handled. */
  handled_by: number | null;
  handled_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The images of a feedback, in the order sent: uploads (`files`) it uses by id. */
export interface FeedbackImagesTable {
  id: Generated<number>;
  feedback_id: number;
  file_id: number;
  sort: number;
}

/** The feedback feature's own tables: its database type (FeedbackDb) is these and the core ones (db/schema.ts). */
export interface FeedbackTables {
  feedback: FeedbackTable;
  feedback_images: FeedbackImagesTable;
}

export type FeedbackDb = FeatureDb<FeedbackTables>;

declare module '../../db/schema' {
  interface Database extends FeedbackTables {}
}
