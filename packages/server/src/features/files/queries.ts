import type { filesEndpoints } from '@appdesk/contract/endpoints/files';
import { maskPhone } from '@appdesk/contract/format';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { containsText, iso } from '../../db/paging';
import { fail } from '../../http/errors';
import { usesOf } from './uses';

type PageFilter = z.output<(typeof filesEndpoints)['/api/files/fetch/page']['input']>;
type FileKind = NonNullable<PageFilter['kind']>;

const sortColumn = { createdAt: 'files.created_at', size: 'files.size' } as const;

export function filteredFiles(db: Db, filter: Pick<PageFilter, 'kind' | 'search'>) {
  let query = db.selectFrom('files');
  if (filter.kind) query = query.where('files.kind', '=', filter.kind);
  if (filter.search) {
    const search = filter.search;
    query = /^[0-9a-f]{8,64}$/i.test(search)
      ? query.where((eb) =>
          eb.or([eb('files.sha256', 'like', `${search.toLowerCase()}%`), containsText(['files.name'], search)(eb)]),
        )
      : query.where(containsText(['files.name'], search));
  }
  return query;
}

/** One page in the chosen order, with the uploader's name; the id breaks ties. */
export function orderedFiles(db: Db, filter: PageFilter) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  return filteredFiles(db, filter)
    .leftJoin('users', 'users.id', 'files.uploader_id')
    .selectAll('files')
    .select(['users.nickname as uploader_nickname', 'users.phone as uploader_phone'])
    .orderBy(sortColumn[filter.sort], direction)
    .orderBy('files.id', direction);
}

type FileRow = Awaited<ReturnType<ReturnType<typeof orderedFiles>['execute']>>[number];

export const fileUrl = (key: string) => `/files/${key}`;

/** A stored file as uploads answer it. */
export function presentFile(row: {
  id: number;
  key: string;
  name: string;
  size: number;
  sha256: string;
  mime: string;
  kind: string;
}) {
  return {
    id: row.id,
    url: fileUrl(row.key),
    key: row.key,
    name: row.name,
    size: Number(row.size),
    sha256: row.sha256,
    mime: row.mime,
    kind: row.kind as FileKind,
  };
}

/** Lines of the uploads page, each with what refers to it. */
export async function presentRows(db: Db, rows: FileRow[]) {
  const uses = await usesOf(
    db,
    rows.map((r) => ({ id: r.id, url: fileUrl(r.key) })),
  );
  return rows.map((row) => ({
    ...presentFile(row),
    uploaderId: row.uploader_id,
    uploader: row.uploader_phone
      ? `${row.uploader_nickname || '用户'}（${maskPhone(row.uploader_phone)}）`
      : row.uploader_id === null
        ? '—'
        : `用户 #${row.uploader_id}`,
    createdAt: iso(Number(row.created_at)),
    usedBy: uses.get(row.id) ?? [],
  }));
}

export async function loadFile(db: Db, id: number) {
  const row = await db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('文件不存在');
  return row;
}
