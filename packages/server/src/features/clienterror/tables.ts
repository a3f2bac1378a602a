import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/**
 * client_error_groups: one row per reported error, keyed by a digest of its message, release and
 * first stack frame; at most MAX_GROUPS rows (the longest unseen go first).
 */
export interface ClientErrorGroupsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of message, release and first frame. */
  digest: string;
  message: string;
  release: string;
  frame: string;
  kind: string;
  count: number;
  first_seen_at: number;
  last_seen_at: number;
  last_path: string;
  resolved_at: number | null;
  resolved_by: number | null;
}

/** client_error_samples: the latest few reports of each group, with their stacks. */
export interface ClientErrorSamplesTable {
  id: Generated<number>;
  group_id: number;
  kind: string;
  stack: string;
  path: string;
  user_agent: string;
  repeats: number;
  created_at: number;
}

/** The clienterror feature's own tables: its database type (ClientErrorDb) is these and the core ones (db/schema.ts). */
export interface ClientErrorTables {
  client_error_groups: ClientErrorGroupsTable;
  client_error_samples: ClientErrorSamplesTable;
}

export type ClientErrorDb = FeatureDb<ClientErrorTables>;

declare module '../../db/schema' {
  interface Database extends ClientErrorTables {}
}
