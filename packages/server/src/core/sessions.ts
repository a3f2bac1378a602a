import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_APP } from '@appdesk/contract/constants';
import { sql } from 'kysely';
import { compiledOnce } from '../db/compiled';
import type { Db } from '../db/index';
import type { UsersTable } from '../db/schema';
import { sessionCacheOf } from './session-cache';

const DAY = 24 * 60 * 60 * 1000;
/** Sliding expiry: a session unused this long ends. */
export const SLIDING_MS = 7 * DAY;
/** Absolute expiry: no session outlives this, however busy. */
export const ABSOLUTE_MS = 30 * DAY;
/** Live sessions one account may hold; a new sign-in past it ends the oldest (stolen-token sprawl). */
export const MAX_SESSIONS_PER_USER = 10;
/** last_used_at is written at most this often, so reads stay reads. */
export const TOUCH_EVERY_MS = 60 * 1000;

/** What an idle console session answers (with the expired-session code, 402). */
export const CONSOLE_IDLE_MESSAGE = '长时间未操作，已退出登录，请重新登录';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  db: Db,
  userId: number,
  // An app that names none (the console, the apps of before) signs in to the default app.
  meta: { ip: string | null; userAgent: string | null; app?: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      app: meta.app ?? DEFAULT_APP,
      token_hash: hashToken(token),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      created_at: now,
      last_used_at: now,
      expires_at: Math.min(now + SLIDING_MS, now + ABSOLUTE_MS),
    })
    .execute();
  // Keep the newest MAX_SESSIONS_PER_USER (ids grow with creation time); the oldest go first.
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(MAX_SESSIONS_PER_USER),
    )
    .execute();
  return token;
}

export type SessionUser = Pick<
  UsersTable,
  'phone' | 'nickname' | 'avatar' | 'email' | 'email_verified' | 'is_admin' | 'status' | 'coins' | 'created_at'
> & {
  id: number;
  must_change_password: number;
  /** The app the session signed in to (sessions.app): what its VIP answers are about. */
  session_app: string;
};

/** The account's own columns of a SessionUser (without the session's app). */
export type AccountColumns = Omit<SessionUser, 'session_app'>;

/** What a request knows of its signed-in account. */
export const sessionUserColumns = [
  'id',
  'phone',
  'nickname',
  'avatar',
  'email',
  'email_verified',
  'is_admin',
  'status',
  'coins',
  'created_at',
  'must_change_password',
] as const;

/** The account's columns of a joined row (a loop, not a rest pattern: those are slow in Node 20). */
function sessionUserOf(row: SessionUser): SessionUser {
  const user: Partial<Record<keyof SessionUser, unknown>> = {};
  for (const column of sessionUserColumns) user[column] = row[column];
  user.session_app = row.session_app;
  return user as SessionUser;
}

/** The account as a session of `app` sees it, read again after a change. */
export async function readSessionUser(db: Db, id: number, app: string): Promise<SessionUser> {
  const row = await db.selectFrom('users').select(sessionUserColumns).where('id', '=', id).executeTakeFirstOrThrow();
  return { ...row, session_app: app };
}

export type SessionLookup =
  | { state: 'none' }
  /** `message`: why, when not the usual 登录已过期 (a console session unused for the console's idle time). */
  | { state: 'expired'; message?: string }
  /** `console`: used on an admin endpoint before (markConsoleSession); absent when not looked up here. */
  | { state: 'ok'; sessionId: number; user: SessionUser; console?: boolean };

/** The session and its account, by the token's digest: run on every signed-in call, so compiled once. */
const sessionByTokenHash = compiledOnce(
  (db: Db, tokenHash: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id as session_id',
        'sessions.created_at as session_created_at',
        'sessions.last_used_at',
        'sessions.expires_at',
        'sessions.console',
        'sessions.app as session_app',
        ...sessionUserColumns.map((c) => `users.${c}` as const),
      ])
      .where('sessions.token_hash', '=', tokenHash),
  { pointRead: true },
);

type SessionRow = Awaited<ReturnType<typeof sessionByTokenHash>>[number];

/**
 * Finds the session behind a token; extends its sliding expiry at most once a minute. On
 * PostgreSQL an operator's session comes from memory until it is due for that touch, unless
 * something changed it meanwhile (core/session-cache.ts). A console session unused for
 * `consoleIdleMs` (config.consoleIdleMs) ends here, whatever the call (consoleIdle below).
 */
export async function lookupSession(db: Db, token: string, consoleIdleMs: number): Promise<SessionLookup> {
  if (!token || token.length > 200) return { state: 'none' };
  const tokenHash = hashToken(token);
  const cache = sessionCacheOf<SessionRow>(db);
  const kept = cache ? await cache.read(tokenHash) : undefined;
  // A kept row was used within the last minute (isCurrent), so it is never idle.
  if (kept && isCurrent(kept, Date.now())) {
    return { state: 'ok', sessionId: kept.session_id, user: sessionUserOf(kept), console: kept.console === 1 };
  }
  const since = cache?.generation;
  const [row] = await sessionByTokenHash(db, tokenHash);
  if (!row) return { state: 'none' };
  const now = Date.now();
  if (consoleIdle(row, now, consoleIdleMs)) {
    // Kept, ended (the lists show sessions whose end is ahead): the console's calls of one page
    // load race each other, and each answers why, not 登录状态无效 for the ones after the first.
    // An account keeps its newest 10 sessions, so the ended one goes with later sign-ins.
    if (row.expires_at > now) {
      await db.updateTable('sessions').set({ expires_at: now }).where('id', '=', row.session_id).execute();
    }
    return { state: 'expired', message: CONSOLE_IDLE_MESSAGE };
  }
  if (now >= row.expires_at) {
    await db.deleteFrom('sessions').where('id', '=', row.session_id).execute();
    return { state: 'expired' };
  }
  if (now - row.last_used_at >= TOUCH_EVERY_MS) {
    // A console session's end is its idle end, so the session lists show when it really ends.
    const idleEnd = row.console === 1 ? now + consoleIdleMs + TOUCH_EVERY_MS : Number.POSITIVE_INFINITY;
    const expires = Math.min(now + SLIDING_MS, idleEnd, row.session_created_at + ABSOLUTE_MS);
    await db
      .updateTable('sessions')
      .set({ last_used_at: now, expires_at: expires })
      .where('id', '=', row.session_id)
      .execute();
    await db.updateTable('users').set({ last_active_at: now }).where('id', '=', row.id).execute();
  } else {
    cache?.keep(tokenHash, row, since);
  }
  return { state: 'ok', sessionId: row.session_id, user: sessionUserOf(row), console: row.console === 1 };
}

/**
 * A console session unused for the console's idle time (等保二级, docs/permissions.md). last_used_at
 * is written at most once a minute, so the real last use lies in [last_used_at, last_used_at + 1
 * min): counting the idle time from the minute's end, a session never ends before it has really
 * been unused for `idleMs`, and at most a minute after.
 */
function consoleIdle(row: SessionRow, now: number, idleMs: number): boolean {
  return row.console === 1 && now - row.last_used_at >= idleMs + TOUCH_EVERY_MS;
}

/**
 * Marks a session as the console's: it is used on an admin endpoint (http/route.ts authorize), so
 * from now on it ends after the console's idle time, and its stored end says so (counted from its
 * recorded last use, as consoleIdle). lookupSession checks that on every call, admin or not, so a
 * console coming back after a pause cannot revive its session through a user call
 * (/api/users/fetch/info) first. Written once per session: a marked one costs nothing.
 */
export async function markConsoleSession(
  db: Db,
  found: { sessionId: number; console?: boolean },
  idleMs: number,
): Promise<void> {
  if (found.console) return;
  const idleEnd = sql<number>`last_used_at + ${idleMs + TOUCH_EVERY_MS}`;
  await db
    .updateTable('sessions')
    .set({ console: 1, expires_at: sql<number>`case when ${idleEnd} < expires_at then ${idleEnd} else expires_at end` })
    .where('id', '=', found.sessionId)
    .where('console', '=', 0)
    .execute();
}

/** Neither expired nor due for its touch: what the database holds is what was read. */
function isCurrent(row: SessionRow, now: number): boolean {
  return now < row.expires_at && now - row.last_used_at < TOUCH_EVERY_MS;
}

export async function revokeSession(db: Db, sessionId: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every session of a user, except optionally the one making the request; answers how many ended. */
export async function revokeUserSessions(db: Db, userId: number, keepSessionId?: number): Promise<number> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId !== undefined) q = q.where('id', '!=', keepSessionId);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows);
}
