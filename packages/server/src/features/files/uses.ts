import { channels, platforms } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import { sql } from 'kysely';
import type { Db } from '../../db/index';

type Row = Record<string, unknown>;

/** Tables whose rows use a stored file through `file_id`, the columns that name such a use, and its name. */
const fileIdSources: { table: string; columns: string[]; label: (row: Row) => string }[] = [
  {
    table: 'versions',
    columns: ['version_name', 'platform', 'channel'],
    // Platform and channel by the names operators know (华为应用市场), not their codes.
    label: (r) =>
      `版本 ${r.version_name}（${labelOf(platforms, String(r.platform))} · ${labelOf(channels, String(r.channel))}）`,
  },
  { table: 'images', columns: ['name'], label: (r) => `图片库：${r.name}` },
  { table: 'sound_effects', columns: ['name'], label: (r) => `音效：${r.name}` },
  { table: 'feedback_images', columns: ['feedback_id'], label: (r) => `意见反馈 #${r.feedback_id}` },
  { table: 'feedback_post_images', columns: ['post_id'], label: (r) => `反馈会话留言 #${r.post_id}` },
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
    const { rows } = await sql<Row>`select file_id, ${sql.join(source.columns.map((c) => sql.ref(c)))}
      from ${sql.table(source.table)} where file_id in (${sql.join(ids)})`.execute(db);
    for (const row of rows) add(Number(row.file_id), source.label(row));
  }
  return uses;
}
