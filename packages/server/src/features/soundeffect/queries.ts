import type { soundeffectEndpoints } from '@appdesk/contract/endpoints/soundeffect';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { containsText, iso } from '../../db/paging';
import { fail } from '../../http/errors';
import { audioCodecName } from '../../http/media';
import type { SoundEffectsTable } from './tables';

type PageFilter = z.output<(typeof soundeffectEndpoints)['/api/soundeffect/fetch/page']['input']>;
type Row = Selectable<SoundEffectsTable>;

const sortColumn = { sort: 'sort', createdAt: 'id', duration: 'duration_ms' } as const;

export function filteredSounds(db: Db, filter: Omit<PageFilter, 'page' | 'size' | 'sort' | 'order'>) {
  let query = db.selectFrom('sound_effects');
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled ? 1 : 0);
  if (filter.search) query = query.where(containsText(['name'], filter.search));
  return query;
}

export function orderedSounds(db: Db, filter: PageFilter) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  return filteredSounds(db, filter).selectAll().orderBy(sortColumn[filter.sort], direction).orderBy('id', direction);
}

export async function loadSound(db: Db, id: number) {
  const row = await db.selectFrom('sound_effects').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('音效不存在');
  return row;
}

export const soundBySha = (db: Db, sha256: string) =>
  db.selectFrom('sound_effects').selectAll().where('sha256', '=', sha256).executeTakeFirst();

export function presentSound(row: Row) {
  return {
    id: row.id,
    name: row.name,
    url: `/files/${row.file_key}`,
    category: row.category,
    durationMs: row.duration_ms,
    // Sounds kept before codecs were named in words ("non-PCM (65534)", "IEEE_FLOAT") read in words too.
    codec: audioCodecName(row.codec),
    sampleRate: row.sample_rate,
    mime: row.mime,
    size: Number(row.size),
    sha256: row.sha256,
    sort: row.sort,
    enabled: row.enabled === 1,
    fileId: row.file_id,
    createdAt: iso(Number(row.created_at)),
    updatedAt: iso(Number(row.updated_at)),
  };
}

export async function soundCategories(db: Db) {
  const rows = await db
    .selectFrom('sound_effects')
    .select(['category', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('category')
    .orderBy('category')
    .execute();
  return rows.map((r) => ({ name: r.category, count: Number(r.n) }));
}
