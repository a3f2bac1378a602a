import type { feedbackv2Endpoints } from '@appdesk/contract/endpoints/feedbackv2';
import { maskPhone } from '@appdesk/contract/format';
import { sql } from 'kysely';
import type { z } from 'zod';
import { attachedImages, attachImages } from '../../core/attachments';
import type { Db } from '../../db/index';
import { containsText, iso, rangeMs } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';

const links = { table: 'feedback_post_images', owner: 'post_id' } as const;

type PageFilter = z.output<(typeof feedbackv2Endpoints)['/api/feedbackv2/fetch/page']['input']>;

const name = (nickname: string | null, phone: string | null) => nickname || maskPhone(phone ?? '');

/** Threads (as `filteredThreads` chose them) with the user's phone and the assignee's name. */
export function withPeople(query: ReturnType<typeof filteredThreads>) {
  return query
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as a', 'a.id', 't.assignee_id')
    .selectAll('t')
    .select(['u.phone as user_phone', 'a.nickname as assignee_nickname', 'a.phone as assignee_phone']);
}
type ThreadRow = Awaited<ReturnType<ReturnType<typeof withPeople>['execute']>>[number];

/** The threads a filter matches (no columns chosen: counting and listing both start here). */
export function filteredThreads(
  db: Db,
  filter: Omit<PageFilter, 'page' | 'size' | 'sort' | 'order' | 'app'> & { apps?: AppScope },
  me: number,
) {
  let query = db.selectFrom('feedback_threads as t');
  if (filter.status) query = query.where('t.status', '=', filter.status);
  if (filter.category) query = query.where('t.category', '=', filter.category);
  if (filter.apps) query = query.where(inScope('t.app', filter.apps));
  if (filter.assignee === 'me') query = query.where('t.assignee_id', '=', me);
  if (filter.assignee === 'none') query = query.where('t.assignee_id', 'is', null);
  if (filter.unread) query = query.whereRef('t.last_user_post_id', '>', 't.admin_read_post_id');
  const { from, to } = rangeMs(filter);
  if (from !== undefined) query = query.where('t.last_post_at', '>=', from);
  if (to !== undefined) query = query.where('t.last_post_at', '<=', to);
  if (filter.search) {
    const search = filter.search;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('feedback_posts as p')
          .select(sql`1`.as('one'))
          .whereRef('p.thread_id', '=', 't.id')
          .where(containsText(['p.content'], search)),
      ),
    );
  }
  return query;
}

export const sortColumn = { lastPostAt: 't.last_post_at', createdAt: 't.created_at' } as const;

/** The operators' view of a thread. */
export function presentThread(row: ThreadRow) {
  return {
    id: row.id,
    app: row.app,
    category: row.category,
    status: row.status,
    subject: row.subject,
    lastPostAt: iso(Number(row.last_post_at)),
    createdAt: iso(Number(row.created_at)),
    userId: row.user_id,
    user: maskPhone(row.user_phone),
    unread: row.last_user_post_id > row.admin_read_post_id,
    assigneeId: row.assignee_id,
    assignee: row.assignee_id === null ? null : name(row.assignee_nickname, row.assignee_phone),
    version: row.app_version,
    deviceModel: row.device_model,
    osVersion: row.os_version,
  };
}

/** A thread as an operator sees it; 404 when there is none. */
export async function loadThread(db: Db, id: number): Promise<ThreadRow> {
  const row = await withPeople(db.selectFrom('feedback_threads as t')).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('会话不存在');
  return row;
}

/** A user's own thread; another user's answers exactly as a missing one does. */
export async function loadOwnThread(db: Db, id: number, userId: number): Promise<ThreadRow> {
  const row = await withPeople(db.selectFrom('feedback_threads as t'))
    .where('t.id', '=', id)
    .where('t.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw fail.notFound('会话不存在');
  return row;
}

/** How many operators' posts each of the user's threads has that the user has not opened. */
export function unreadForUser(db: Db, userId: number) {
  return db
    .selectFrom('feedback_posts as p')
    .innerJoin('feedback_threads as t', 't.id', 'p.thread_id')
    .where('t.user_id', '=', userId)
    .where('p.side', '=', 'admin')
    .whereRef('p.id', '>', 't.user_read_post_id');
}

/** The user's view of a thread, with its unread count. */
export function presentMine(row: ThreadRow, unread: number) {
  const { id, app, category, status, subject, lastPostAt, createdAt } = presentThread(row);
  return { id, app, category, status, subject, lastPostAt, createdAt, unread };
}

export async function unreadCounts(db: Db, userId: number, threadIds: number[]): Promise<Map<number, number>> {
  if (threadIds.length === 0) return new Map();
  const rows = await unreadForUser(db, userId)
    .where('t.id', 'in', threadIds)
    .select(['t.id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('t.id')
    .execute();
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** A thread's posts, oldest first, each with its images; `forUser` hides which operator wrote. */
export async function postsOf(db: Db, storage: { url(key: string): string }, threadId: number, forUser: boolean) {
  const posts = await db
    .selectFrom('feedback_posts as p')
    .innerJoin('users as u', 'u.id', 'p.author_id')
    .select(['p.id', 'p.side', 'p.content', 'p.created_at', 'u.nickname', 'u.phone'])
    .where('p.thread_id', '=', threadId)
    .orderBy('p.id')
    .execute();
  const images = await attachedImages(
    db,
    storage,
    links,
    posts.map((p) => p.id),
  );
  return posts.map((p) => ({
    id: p.id,
    from: p.side,
    author: forUser ? (p.side === 'admin' ? '客服' : '我') : name(p.nickname, p.phone),
    content: p.content,
    images: images.get(p.id) ?? [],
    createdAt: iso(Number(p.created_at)),
  }));
}

/** Adds a post (and its images) to a thread; answers its id. */
export async function insertPost(
  db: Db,
  post: { threadId: number; side: 'user' | 'admin'; authorId: number; content: string; cannedId?: number },
  images: { id: number }[],
  now: number,
): Promise<number> {
  const { id } = await db
    .insertInto('feedback_posts')
    .values({
      thread_id: post.threadId,
      side: post.side,
      author_id: post.authorId,
      content: post.content,
      canned_id: post.cannedId ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await attachImages(db, links, id, images);
  return id;
}

/** The first words of a post, on one line, as the thread's subject. */
export function subjectOf(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : line;
}
