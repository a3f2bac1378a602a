import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** review_rewards: a user's claim of coins for a store review, with its screenshot and verdict. */
export interface ReviewRewardsTable {
  id: Generated<number>;
  user_id: number;
  app: string;
  store: string;
  screenshot: string;
  status: string;
  coins: number;
  reason: string | null;
  reviewer_id: number | null;
  created_at: number;
  updated_at: number;
  reviewed_at: number | null;
}

/** review_reward_settings: the coins an approved claim gives, per app. */
export interface ReviewRewardSettingsTable {
  app: string;
  coins: number;
  updated_at: number;
}

/** The reviewreward feature's own tables: its database type (ReviewRewardDb) is these and the core ones (db/schema.ts). */
export interface ReviewRewardTables {
  review_rewards: ReviewRewardsTable;
  review_reward_settings: ReviewRewardSettingsTable;
}

export type ReviewRewardDb = FeatureDb<ReviewRewardTables>;

declare module '../../db/schema' {
  interface Database extends ReviewRewardTables {}
}
