import type { Generated } from 'kysely';

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

declare module '../../db/schema' {
  interface Database {
    sound_effects: SoundEffectsTable;
  }
}
