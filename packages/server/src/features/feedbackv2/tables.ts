import type { ThreadCategory, ThreadStatus } from '@appdesk/contract/constants';
import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/**
 * feedback_threads (反馈会话): one user's conversation with the operators. Read state is kept as
 * post ids (ids only grow): the user has read operators' posts up to `user_read_post_id`, the
 * operators the user's up to `admin_read_post_id`.
 */
export interface FeedbackThreadsTable {
  id: Generated<number>;
  app: string;
  user_id: number;
  category: ThreadCategory;
  status: ThreadStatus;
  /** The first post's opening words. */
  subject: string;
  assignee_id: number | null;
  app_version: string;
  device_model: string;
  os_version: string;
  last_post_at: number;
  last_user_post_id: number;
  user_read_post_id: number;
  admin_read_post_id: number;
  created_at: number;
  updated_at: number;
}

/** feedback_posts: what either side wrote in a thread. */
export interface FeedbackPostsTable {
  id: Generated<number>;
  thread_id: number;
  side: 'user' | 'admin';
  author_id: number;
  content: string;
  /** The canned reply an operator started from (kept for the record). */
  canned_id: number | null;
  created_at: number;
}

/** The images of a post, in the order sent: uploads (`files`) it uses by id. */
export interface FeedbackPostImagesTable {
  id: Generated<number>;
  post_id: number;
  file_id: number;
  sort: number;
}

/** feedback_canned: short reply templates operators manage on the page. */
export interface FeedbackCannedTable {
  id: Generated<number>;
  title: string;
  content: string;
  author_id: number | null;
  created_at: number;
  updated_at: number;
}

/** The feedbackv2 feature's own tables: its database type (FeedbackV2Db) is these and the core ones (db/schema.ts). */
export interface FeedbackV2Tables {
  feedback_threads: FeedbackThreadsTable;
  feedback_posts: FeedbackPostsTable;
  feedback_post_images: FeedbackPostImagesTable;
  feedback_canned: FeedbackCannedTable;
}

export type FeedbackV2Db = FeatureDb<FeedbackV2Tables>;

declare module '../../db/schema' {
  interface Database extends FeedbackV2Tables {}
}
