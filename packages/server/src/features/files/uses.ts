import { sql } from 'kysely';
import type { Db } from '../../db/index';

/** Tables whose rows use a stored file through `file_id`, and how such a use is named (SQL). */
const fileIdSources: { table: string; label: string }[] = [
  { table: 'versions', label: `'版本 ' || version_name || '（' || platform || ' · ' || channel || '）'` },
  { table: 'images', label: `'图片库：' || name` },
  { table: 'sound_effects', label: `'音效：' || name` },
  { table: 'feedback_images', label: `'意见反馈 #' || feedback_id` },
  { table: 'feedback_post_images', label: `'反馈会话留言 #' || post_id` },
];

/**
 * What refers to stored files, by id or by URL: the site's logo and service image, users'
 * avatars, and every table with a `file_id` column that names its use (release packages, feedback and thread images). A file
 * is removed only when this finds nothing.
 */
export async function usesOf(db: Db, files: { id: number; url: string }[]): Promise<Map<number, string[]>> {
  const uses = new Map<number, string[]>();
  if (files.length === 0) return uses;
  const add = (id: number, label: string) => uses.set(id, [...(uses.get(id) ?? []), label]);
  const byUrl = new Map(files.map((f) => [f.url, f.id]));
  const urls = [...byUrl.keys()];

  const site = await db.selectFrom('allocation').select(['logo', 'service']).executeTakeFirst();
  for (const [column, label] of [
    ['logo', '站点 Logo'],
    ['service', '客服图片'],
  ] as const) {
    const id = site?.[column] ? byUrl.get(site[column] as string) : undefined;
    if (id !== undefined) add(id, label);
  }
  const avatars = await db.selectFrom('users').select(['id', 'avatar']).where('avatar', 'in', urls).execute();
  for (const user of avatars) add(byUrl.get(user.avatar as string) as number, `用户 #${user.id} 的头像`);

  const ids = files.map((f) => f.id);
  for (const source of fileIdSources) {
    const { rows } = await sql<{ file_id: number; label: string }>`select file_id, ${sql.raw(source.label)} as label
      from ${sql.table(source.table)} where file_id in (${sql.join(ids)})`.execute(db);
    for (const row of rows) add(Number(row.file_id), row.label);
  }
  return uses;
}
