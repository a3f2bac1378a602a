import type { feedbackEndpoints, feedbackFilter } from '@appdesk/contract/endpoints/feedback';
import { maskPhone } from '@appdesk/contract/format';
import type { z } from 'zod';
import { attachedImages, attachImages } from '../../core/attachments';
import type { Db } from '../../db/index';
import { containsText, iso, isoOrNull, rangeMs } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';

type Filter = z.output<typeof feedbackFilter>;
type NewFeedback = z.output<(typeof feedbackEndpoints)['/api/feedback/make']['input']>;

export function filteredFeedback(db: Db, filter: Omit<Filter, 'app'> & { apps?: AppScope }) {
  let query = db.selectFrom('feedback as f');
  if (filter.status) query = query.where('f.status', '=', filter.status);
  if (filter.apps) query = query.where(inScope('f.app', filter.apps));
  const { from, to } = rangeMs(filter);
  if (from !== undefined) query = query.where('f.created_at', '>=', from);
  if (to !== undefined) query = query.where('f.created_at', '<=', to);
  if (filter.search) query = query.where(containsText(['f.content', 'f.contact'], filter.search));
  return query;
}

/** Feedback rows with the author's phone and the handling operator's name. */
export function withPeople<Q extends ReturnType<typeof filteredFeedback>>(query: Q) {
  return query
    .leftJoin('users as u', 'u.id', 'f.user_id')
    .leftJoin('users as h', 'h.id', 'f.handled_by')
    .selectAll('f')
    .select(['u.phone as user_phone', 'h.nickname as handler_nickname', 'h.phone as handler_phone']);
}

type Row = Awaited<ReturnType<ReturnType<typeof withPeople>['execute']>>[number];

export async function loadFeedback(db: Db, id: number): Promise<Row> {
  const row = await withPeople(filteredFeedback(db, { search: '' }))
    .where('f.id', '=', id)
    .executeTakeFirst();
  if (!row) throw fail.notFound('反馈不存在');
  return row;
}

const links = { table: 'feedback_images', owner: 'feedback_id' } as const;

/** Rows as the operators' list shows them. */
export async function presentRows(ctx: { db: Db; storage: { url(key: string): string } }, rows: Row[]) {
  const images = await attachedImages(
    ctx.db,
    ctx.storage,
    links,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    app: r.app,
    userId: r.user_id,
    user: r.user_phone ? maskPhone(r.user_phone) : '',
    content: r.content,
    contact: r.contact,
    images: images.get(r.id) ?? [],
    version: r.app_version,
    channel: r.channel,
    deviceModel: r.device_model,
    osVersion: r.os_version,
    status: r.status,
    reply: r.reply,
    repliedAt: isoOrNull(r.replied_at === null ? null : Number(r.replied_at)),
    handler: r.handled_by === null ? null : r.handler_nickname || maskPhone(r.handler_phone ?? ''),
    handledAt: isoOrNull(r.handled_at === null ? null : Number(r.handled_at)),
    createdAt: iso(Number(r.created_at)),
  }));
}

/** The author's own view of a row. */
export function mine(row: Awaited<ReturnType<typeof presentRows>>[number]) {
  const { id, app, content, images, status, reply, repliedAt, createdAt } = row;
  return { id, app, content, images, status, reply, repliedAt, createdAt };
}

export async function insertFeedback(
  db: Db,
  input: NewFeedback,
  userId: number | null,
  images: { id: number }[],
): Promise<number> {
  const now = Date.now();
  const { id } = await db
    .insertInto('feedback')
    .values({
      app: input.app,
      user_id: userId,
      content: input.content,
      contact: input.contact,
      app_version: input.version,
      channel: input.channel,
      device_model: input.deviceModel,
      os_version: input.osVersion,
      device_id: input.deviceId,
      status: 'pending',
      reply: null,
      replied_at: null,
      handled_by: null,
      handled_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await attachImages(db, links, id, images);
  return id;
}
