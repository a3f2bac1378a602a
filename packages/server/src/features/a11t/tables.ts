import type { Generated } from 'kysely';

/** key_value_revisions: every change of a key, kept forever (the database refuses UPDATE and DELETE). */
export interface KeyValueRevisionsTable {
  id: Generated<number>;
  key_value_id: number;
  app: string;
  key: string;
  /** 1, 2, 3… per key. */
  revision: number;
  action: 'make' | 'update' | 'rollback' | 'remove';
  rolled_back_to: number | null;
  type: string;
  value: string;
  /** JSON array of overrides. */
  overrides: string;
  description: string;
  actor_id: number | null;
  created_at: number;
}

/** Columns this feature adds to the shared key_values table (migration 202611230500). */
export interface KeyValuesConfigColumns {
  type: Generated<string>;
  overrides: Generated<string>;
  revision: Generated<number>;
  updated_by: number | null;
}

declare module '../../db/schema' {
  interface KeyValuesTable extends KeyValuesConfigColumns {}
  interface Database {
    key_value_revisions: KeyValueRevisionsTable;
  }
}
