import { sql } from 'kysely';
import type { Db } from '../db/index';
import { fail } from '../http/errors';
import { hashToken } from './sessions';

/** How long an upload may wait before the feedback or reply that uses it is sent. */
const FRESH_MS = 24 * 60 * 60 * 1000;

/** Who attaches: the signed-in account, if any, and the claim tokens of uploads made signed out. */
export interface Attacher {
  userId: number | null;
  tokens: string[];
}

/**
 * The images a feedback, a thread post or a reply attaches (features feedback and feedbackv2):
 * each id must be an image stored in the last day that belongs to the caller, named once. An
 * upload belongs to who made it: to the account that was signed in when it was made, or to
 * whoever holds the claim token its answer carried (`/api/feedback/upload` signed out; only the
 * token's SHA-256 is kept). Ids are sequential, so knowing one proves nothing: an upload with no
 * owner, or another account's (one already attached to someone's record included), is refused as
 * if it did not exist. Answers them in the order given; 400 naming the problem otherwise.
 */
export async function ownImages(
  db: Db,
  ids: number[],
  attacher: Attacher,
  now = Date.now(),
): Promise<{ id: number; key: string }[]> {
  if (ids.length === 0) return [];
  if (new Set(ids).size !== ids.length) throw fail.badInput('同一张图片不能重复添加');
  const { userId } = attacher;
  const claims = [...new Set(attacher.tokens)].map(hashToken);
  const rows =
    userId === null && claims.length === 0
      ? []
      : await db
          .selectFrom('files')
          .select(['id', 'key'])
          .where('id', 'in', ids)
          .where('kind', '=', 'image')
          .where('created_at', '>=', now - FRESH_MS)
          .where((eb) =>
            eb.or([
              ...(userId === null ? [] : [eb('uploader_id', '=', userId)]),
              ...(claims.length === 0 ? [] : [eb('claim_sha256', 'in', claims)]),
            ]),
          )
          .execute();
  const found = new Map(rows.map((f) => [f.id, f]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw fail.badInput(`图片 ${missing.join('、')} 不存在或已过期，请重新上传`);
  return ids.map((id) => found.get(id) as { id: number; key: string });
}

/**
 * Where a feature keeps the images attached to its records: its own table (with `file_id` and `sort`)
 * and the column naming the record. Named by the feature, not here: core names no feature's table.
 */
export interface ImageLinks {
  table: string;
  owner: string;
}

export interface AttachedImage {
  id: number;
  url: string;
}

/** Links images (checked by `ownImages`) to a record, in the order given. */
export async function attachImages(db: Db, links: ImageLinks, ownerId: number, images: { id: number }[]) {
  if (images.length === 0) return;
  const rows = images.map((image, sort) => sql`(${ownerId}, ${image.id}, ${sort})`);
  await sql`insert into ${sql.table(links.table)} (${sql.ref(links.owner)}, file_id, sort)
    values ${sql.join(rows)}`.execute(db);
}

/** The images of each record, in the order sent, with the URLs pages and apps load. */
export async function attachedImages(
  db: Db,
  storage: { url(key: string): string },
  links: ImageLinks,
  ownerIds: number[],
): Promise<Map<number, AttachedImage[]>> {
  const images = new Map<number, AttachedImage[]>();
  if (ownerIds.length === 0) return images;
  const owner = sql.ref(`i.${links.owner}`);
  const { rows } = await sql<{ owner: number; id: number; key: string }>`
    select ${owner} as owner, f.id as id, f.key as key
    from ${sql.table(links.table)} as i inner join files as f on f.id = i.file_id
    where ${owner} in (${sql.join(ownerIds)})
    order by ${owner}, i.sort`.execute(db);
  for (const r of rows) {
    const ownerId = Number(r.owner);
    images.set(ownerId, [...(images.get(ownerId) ?? []), { id: Number(r.id), url: storage.url(r.key) }]);
  }
  return images;
}
