import { createHash } from 'node:crypto';
import type { clientErrorEndpoints } from '@appdesk/contract/endpoints/clienterror';
import { clientErrorLimits as limits, pagePath, scrubText } from '@appdesk/contract/scrub';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { containsText } from '../../db/paging';
import { fail } from '../../http/errors';

type Report = z.output<(typeof clientErrorEndpoints)['/api/clienterror/report']['input']>;
type PageFilter = z.output<(typeof clientErrorEndpoints)['/api/clienterror/fetch/page']['input']>;

/** Groups kept at most: past it, the groups seen longest ago make room (with their samples). */
export const MAX_GROUPS = 500;
/** Reports kept of each group, the latest. */
export const SAMPLES_PER_GROUP = 5;

/** A stack frame's place: a URL or path, then `:line:column`. */
const framePlace = /((?:https?:\/\/[^\s()@]+|\/[^\s()@:]+[^\s()@]*?)):(\d+):(\d+)/;

/** The first frame of a stack that names a place, as `path:line:column` without the origin; '' if none. */
export function firstFrame(stack: string): string {
  for (const line of stack.split('\n')) {
    const found = framePlace.exec(line);
    if (found) return `${found[1].replace(/^https?:\/\/[^/]+/, '')}:${found[2]}:${found[3]}`;
  }
  return '';
}

/** What is kept of a report: the contract bounds it, and it is scrubbed again (the sender is anonymous). */
export function cleanReport(report: Report, headerUserAgent: string | null) {
  const message = scrubText(report.message, limits.message);
  const release = scrubText(report.release, limits.release);
  const stack = scrubText(report.stack, limits.stack);
  const frame = firstFrame(stack);
  return {
    kind: report.kind,
    message,
    release,
    stack,
    frame,
    path: pagePath(report.path),
    userAgent: scrubText(report.userAgent || headerUserAgent || '', limits.userAgent),
    repeats: report.repeats,
    digest: createHash('sha256').update(`${message}\n${release}\n${frame}`).digest('hex'),
  };
}

/** Drops the groups seen longest ago until one more fits under MAX_GROUPS. */
async function makeRoom(db: Db): Promise<void> {
  const old = await db
    .selectFrom('client_error_groups')
    .select('id')
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .offset(MAX_GROUPS - 1)
    .limit(1000)
    .execute();
  if (old.length === 0) return;
  const ids = old.map((r) => r.id);
  await db.deleteFrom('client_error_samples').where('group_id', 'in', ids).execute();
  await db.deleteFrom('client_error_groups').where('id', 'in', ids).execute();
}

/** Adds a report to its group (a new group if its digest is new; a handled one opens again) and keeps it as a sample. */
export async function recordReport(db: Db, report: ReturnType<typeof cleanReport>, now = Date.now()): Promise<number> {
  const known = await db
    .selectFrom('client_error_groups')
    .select('id')
    .where('digest', '=', report.digest)
    .executeTakeFirst();
  if (!known) await makeRoom(db);
  const { id } = await db
    .insertInto('client_error_groups')
    .values({
      digest: report.digest,
      message: report.message,
      release: report.release,
      frame: report.frame,
      kind: report.kind,
      count: report.repeats,
      first_seen_at: now,
      last_seen_at: now,
      last_path: report.path,
      resolved_at: null,
      resolved_by: null,
    })
    .onConflict((oc) =>
      oc.column('digest').doUpdateSet((eb) => ({
        count: eb('client_error_groups.count', '+', report.repeats),
        last_seen_at: now,
        last_path: report.path,
        resolved_at: null,
        resolved_by: null,
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('client_error_samples')
    .values({
      group_id: id,
      kind: report.kind,
      stack: report.stack,
      path: report.path,
      user_agent: report.userAgent,
      repeats: report.repeats,
      created_at: now,
    })
    .execute();
  const oldest = await db
    .selectFrom('client_error_samples')
    .select('id')
    .where('group_id', '=', id)
    .orderBy('id', 'desc')
    .offset(SAMPLES_PER_GROUP)
    .limit(1)
    .executeTakeFirst();
  if (oldest)
    await db.deleteFrom('client_error_samples').where('group_id', '=', id).where('id', '<=', oldest.id).execute();
  return id;
}

const sortColumn = { lastSeenAt: 'last_seen_at', count: 'count', firstSeenAt: 'first_seen_at' } as const;

export function filteredGroups(db: Db, filter: Pick<PageFilter, 'status' | 'release' | 'search'>) {
  let query = db.selectFrom('client_error_groups as g');
  if (filter.status === 'open') query = query.where('g.resolved_at', 'is', null);
  if (filter.status === 'resolved') query = query.where('g.resolved_at', 'is not', null);
  if (filter.release) query = query.where('g.release', '=', filter.release);
  if (filter.search) query = query.where(containsText(['g.message', 'g.frame'], filter.search));
  return query;
}

/** The group's columns with the name and phone of the operator who handled it. */
export function withResolver<Q extends ReturnType<typeof filteredGroups>>(query: Q) {
  return query
    .leftJoin('users as u', 'u.id', 'g.resolved_by')
    .selectAll('g')
    .select(['u.nickname as resolver_nickname', 'u.phone as resolver_phone']);
}

/** One page in the chosen order; the id breaks ties so pages never overlap. */
export function orderedGroups(db: Db, filter: PageFilter) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  return withResolver(filteredGroups(db, filter))
    .orderBy(`g.${sortColumn[filter.sort]}`, direction)
    .orderBy('g.id', direction);
}

export async function loadGroup(db: Db, id: number) {
  const row = await withResolver(db.selectFrom('client_error_groups as g')).where('g.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('这组前端错误不存在（可能已因超出保存上限被清理）');
  return row;
}
export type GroupRow = Awaited<ReturnType<typeof loadGroup>>;

export function samplesOf(db: Db, groupId: number) {
  return db
    .selectFrom('client_error_samples')
    .selectAll()
    .where('group_id', '=', groupId)
    .orderBy('id', 'desc')
    .limit(SAMPLES_PER_GROUP)
    .execute();
}
