import type { Generated } from 'kysely';

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

declare module '../../db/schema' {
  interface Database {
    client_error_groups: ClientErrorGroupsTable;
    client_error_samples: ClientErrorSamplesTable;
  }
}
