import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

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

/** The a11t feature's own tables: its database type (A11tDb) is these and the core ones (db/schema.ts). */
export interface A11tTables {
  key_value_revisions: KeyValueRevisionsTable;
}

export type A11tDb = FeatureDb<A11tTables>;

declare module '../../db/schema' {
  interface KeyValuesTable extends KeyValuesConfigColumns {}
  interface Database extends A11tTables {}
}
