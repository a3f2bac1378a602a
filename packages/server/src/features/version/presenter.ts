import type { Selectable } from 'kysely';
import { iso, isoOrNull } from '../../db/paging';
import type { VersionsTable } from './tables';

export type VersionRow = Selectable<VersionsTable> & { file_key?: string | null; file_name?: string | null };

export const fileUrl = (key: string) => `/files/${key}`;

/** A release as operators manage it. */
export function presentVersion(row: VersionRow) {
  return {
    id: row.id,
    app: row.app,
    platform: row.platform,
    channel: row.channel,
    versionName: row.version_name,
    versionCode: row.version_code,
    minVersionCode: row.min_version_code,
    changelog: row.changelog,
    package:
      row.file_id !== null && row.file_key
        ? {
            fileId: row.file_id,
            url: fileUrl(row.file_key),
            name: row.file_name ?? '',
            size: Number(row.size),
            sha256: row.sha256,
            md5: row.md5,
            packageName: row.package_name,
          }
        : null,
    storeUrl: row.store_url,
    status: row.status,
    rollout: row.rollout,
    promptTimes: row.prompt_times,
    promptIntervalDays: row.prompt_interval_days,
    ignorable: row.ignorable === 1,
    reviewHold: row.review_hold === 1,
    publishedAt: isoOrNull(row.published_at === null ? null : Number(row.published_at)),
    createdAt: iso(Number(row.created_at)),
    updatedAt: iso(Number(row.updated_at)),
  };
}
export type Release = ReturnType<typeof presentVersion>;
