import type { Db } from '../db/index';
import { fail } from '../http/errors';

/** How long an upload may wait before the feedback or reply that uses it is sent. */
const FRESH_MS = 24 * 60 * 60 * 1000;

/**
 * The images a feedback, a thread post or a reply attaches (features feedback and feedbackv2):
 * each id must be an image stored in the last day by the caller or through the apps' public
 * upload (which knows no account), named once. Answers them in the order given; 400 naming the problem otherwise.
 */
export async function ownImages(
  db: Db,
  ids: number[],
  uploaderId: number | null,
  now = Date.now(),
): Promise<{ id: number; key: string }[]> {
  if (ids.length === 0) return [];
  if (new Set(ids).size !== ids.length) throw fail.badInput('同一张图片不能重复添加');
  let query = db
    .selectFrom('files')
    .select(['id', 'key'])
    .where('id', 'in', ids)
    .where('kind', '=', 'image')
    .where('created_at', '>=', now - FRESH_MS);
  query = query.where((eb) =>
    uploaderId === null
      ? eb('uploader_id', 'is', null)
      : eb.or([eb('uploader_id', 'is', null), eb('uploader_id', '=', uploaderId)]),
  );
  const found = new Map((await query.execute()).map((f) => [f.id, f]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw fail.badInput(`图片 ${missing.join('、')} 不存在或已过期，请重新上传`);
  return ids.map((id) => found.get(id) as { id: number; key: string });
}
