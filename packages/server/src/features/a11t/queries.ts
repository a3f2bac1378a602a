import type { a11tEndpoints, ConfigOverride } from '@appdesk/contract/endpoints/a11t';
import { maskPhone } from '@appdesk/contract/format';
import { parseConfigValue } from '@appdesk/contract/rules';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { containsText, iso } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';
import type { ConfigType } from './resolve';

type PageFilter = z.output<(typeof a11tEndpoints)['/api/a11t/fetch/page']['input']>;
const sortColumn = { key: 'key_values.key', updatedAt: 'key_values.updated_at' } as const;

type Filter = Pick<PageFilter, 'type' | 'search'> & { apps: AppScope };

export function filteredEntries(db: Db, filter: Filter) {
  let query = db.selectFrom('key_values');
  if (filter.apps) query = query.where(inScope('key_values.app', filter.apps));
  if (filter.type) query = query.where('key_values.type', '=', filter.type);
  if (filter.search) query = query.where(containsText(['key_values.key', 'key_values.description'], filter.search));
  return query;
}

const withActor = (db: Db) =>
  db
    .selectFrom('key_values')
    .leftJoin('users', 'users.id', 'key_values.updated_by')
    .selectAll('key_values')
    .select(['users.nickname as actor_nickname', 'users.phone as actor_phone']);

export function orderedEntries(db: Db, filter: Filter & Pick<PageFilter, 'sort' | 'order'>) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  let query = withActor(db);
  if (filter.apps) query = query.where(inScope('key_values.app', filter.apps));
  if (filter.type) query = query.where('key_values.type', '=', filter.type);
  if (filter.search) query = query.where(containsText(['key_values.key', 'key_values.description'], filter.search));
  return query.orderBy(sortColumn[filter.sort], direction).orderBy('key_values.id', direction);
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof withActor>['executeTakeFirstOrThrow']>>;

export const actorName = (nickname: string | null, phone: string | null, id: number | null) =>
  phone ? `${nickname || '用户'}（${maskPhone(phone)}）` : id === null ? '系统' : `用户 #${id}`;

export function presentEntry(row: EntryRow) {
  return {
    id: row.id,
    app: row.app,
    key: row.key,
    type: row.type,
    value: row.value,
    description: row.description,
    overrides: JSON.parse(row.overrides) as ConfigOverride[],
    revision: row.revision,
    updatedBy: actorName(row.actor_nickname, row.actor_phone, row.updated_by),
    createdAt: iso(Number(row.created_at)),
    updatedAt: iso(Number(row.updated_at)),
  };
}
export type Entry = ReturnType<typeof presentEntry>;

export async function loadEntry(db: Db, id: number) {
  const row = await withActor(db).where('key_values.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('键值不存在');
  return row;
}

/** Checks every value of an entry against its type and answers their canonical text. */
export function canonical(type: ConfigType, value: string, overrides: ConfigOverride[]) {
  const text = (raw: string) => {
    const parsed = parseConfigValue(type, raw);
    if (!parsed.ok) throw fail.badInput(`值${parsed.problem}`);
    return parsed.text;
  };
  return { value: text(value), overrides: overrides.map((o) => ({ ...o, value: text(o.value) })) };
}

/** Appends one revision of an entry as it now is (the history's only writer). */
export async function recordRevision(
  db: Db,
  entry: {
    id: number;
    app: string;
    key: string;
    type: string;
    value: string;
    overrides: string;
    description: string;
    revision: number;
  },
  action: 'make' | 'update' | 'rollback' | 'remove',
  actorId: number,
  rolledBackTo: number | null = null,
) {
  await db
    .insertInto('key_value_revisions')
    .values({
      key_value_id: entry.id,
      app: entry.app,
      key: entry.key,
      revision: entry.revision,
      action,
      rolled_back_to: rolledBackTo,
      type: entry.type,
      value: entry.value,
      overrides: entry.overrides,
      description: entry.description,
      actor_id: actorId,
      created_at: Date.now(),
    })
    .execute();
}

/** A key's revisions, newest first, each with the one before it for the diff. */
export async function revisionsOf(db: Db, id: number, seen: (app: string) => boolean) {
  const rows = await db
    .selectFrom('key_value_revisions')
    .leftJoin('users', 'users.id', 'key_value_revisions.actor_id')
    .selectAll('key_value_revisions')
    .select(['users.nickname as actor_nickname', 'users.phone as actor_phone'])
    .where('key_value_id', '=', id)
    .orderBy('revision', 'asc')
    .execute();
  // A key of an app outside the operator's scope is not there for them.
  if (rows.length === 0 || !seen(rows[0].app)) throw fail.notFound('键值不存在');
  const state = (r: (typeof rows)[number]) => ({
    type: r.type,
    value: r.value,
    overrides: JSON.parse(r.overrides) as ConfigOverride[],
    description: r.description,
  });
  return rows
    .map((r, i) => ({
      id: r.id,
      revision: r.revision,
      action: r.action,
      rolledBackTo: r.rolled_back_to,
      ...state(r),
      previous: i > 0 ? state(rows[i - 1]) : null,
      actor: actorName(r.actor_nickname, r.actor_phone, r.actor_id),
      createdAt: iso(Number(r.created_at)),
    }))
    .reverse();
}
