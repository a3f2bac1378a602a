import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/** sound_effects (音效): one uploaded audio file each, with what the server read from it. */
export interface SoundEffectsTable {
  id: Generated<number>;
  file_id: number;
  file_key: string;
  /** Of the file's bytes: an upload with the same digest is the same sound. */
  sha256: string;
  name: string;
  category: string;
  duration_ms: number;
  codec: string;
  sample_rate: number | null;
  mime: string;
  size: number;
  sort: number;
  enabled: number;
  uploader_id: number | null;
  created_at: number;
  updated_at: number;
}

/** The soundeffect feature's own tables: its database type (SoundEffectDb) is these and the core ones (db/schema.ts). */
export interface SoundEffectTables {
  sound_effects: SoundEffectsTable;
}

export type SoundEffectDb = FeatureDb<SoundEffectTables>;

declare module '../../db/schema' {
  interface Database extends SoundEffectTables {}
}
