import { Code } from '@appdesk/contract/codes';
import type { CurrentUser } from '@appdesk/contract/endpoints/users';
import { type LoginReason, recordLogin } from '../../core/login-log';
import { type Reservation, releaseAttempt, reserveAttempt } from '../../core/login-throttle';
import { decoyHash, verifyPassword } from '../../core/passwords';
import { createSession, readSessionUser } from '../../core/sessions';
import { shanghaiTime } from '../../db/paging';
import type { RequestContext } from '../../http/context';
import { ApiError, fail } from '../../http/errors';
import { hasSecondFactor, newChallenge, openChallenge } from '../totp/public';
import { liftDueBlocks } from './blocks';
import { presentSessionUser } from './presenter';

export interface Account {
  id: number;
  password_hash: string;
  status: 'normal' | 'blocked';
  /** When a timed block ends (epoch ms); null for a block without end. */
  blocked_until: number | null;
}

/** Which second factor a sign-in took: none, an authenticator's code, a recovery code. */
export type SecondFactor = 'code' | 'recovery' | undefined;

/** Writes the attempt's 登录日志 row. */
export function logAttempt(
  ctx: RequestContext,
  phone: string,
  account: Account | undefined,
  reason: LoginReason,
  secondFactor?: SecondFactor,
) {
  const code = {
    success: Code.OK,
    wrong_password: Code.UNAUTHENTICATED,
    unknown_phone: Code.UNAUTHENTICATED,
    locked: Code.TOO_MANY,
    blocked: Code.FORBIDDEN,
    phone_taken: Code.CONFLICT,
    second_factor: Code.SECOND_FACTOR_REQUIRED,
    wrong_code: Code.UNAUTHENTICATED,
    recovery_code: Code.OK,
  }[reason];
  const row = { userId: account?.id ?? null, phone, reason, code, ip: ctx.ip, userAgent: ctx.userAgent, secondFactor };
  // A refused attempt is logged even when the call then fails and its transaction rolls back.
  return ctx.survivesFailure((db) => recordLogin(db, row));
}

/**
 * Refused attempts (429) cost the sender nothing, so a flood of them must not fill the disk with
 * 登录日志 rows: one per address per minute is kept (per server, keyed by its config object, which
 * each server has its own of even when several run in one process, as in the tests; bounded).
 */
const LOCKED_LOG_EVERY_MS = 60_000;
const lockedLoggedByServer = new WeakMap<object, Map<string, number>>();
function shouldLogLocked(server: object, ip: string): boolean {
  let lockedLogged = lockedLoggedByServer.get(server);
  if (!lockedLogged) {
    lockedLogged = new Map();
    lockedLoggedByServer.set(server, lockedLogged);
  }
  const now = Date.now();
  const last = lockedLogged.get(ip);
  if (last !== undefined && now - last < LOCKED_LOG_EVERY_MS) return false;
  if (lockedLogged.size >= 10_000) lockedLogged.clear();
  lockedLogged.set(ip, now);
  return true;
}

/**
 * Starts a password attempt for `phone`: finds the account and counts the attempt (throttle
 * reservation) before any password is checked. A device that presents a live session of this
 * same account is exempt from the phone-wide lock (core/login-throttle.ts). A second step's code
 * is counted the same way, on counters of its own (`throttleKey`: secondFactorKey).
 */
export async function beginAttempt(
  ctx: RequestContext,
  phone: string,
  throttleKey = phone,
): Promise<{ account: Account | undefined; reservation: Reservation }> {
  ctx.identify({ phone });
  const account = await ctx.db
    .selectFrom('users')
    .select(['id', 'password_hash', 'status', 'blocked_until'])
    .where('phone', '=', phone)
    .executeTakeFirst();
  const seen = await ctx.presentedSession();
  const knownDevice = seen.state === 'ok' && seen.user.phone === phone;
  try {
    // Counted even if the call fails inside a transaction (a registration resent with an Idempotency-Key).
    const reservation = await ctx.survivesFailure((db) => reserveAttempt(db, throttleKey, ctx.ip, { knownDevice }));
    return { account, reservation };
  } catch (error) {
    if (error instanceof ApiError && shouldLogLocked(ctx.config, ctx.ip))
      await logAttempt(ctx, phone, account, 'locked');
    throw error;
  }
}

/**
 * The password (or, in a second step, the code) was right: hands the reservation back, refuses a
 * blocked account, and opens a session, unless the account signs in with a second factor and
 * this is the first step: then the sign-in is held and the answer is code 432 with the challenge
 * that `/api/users/login/totp` takes with the code (features/totp).
 */
export async function finishSignIn(
  ctx: RequestContext,
  phone: string,
  account: Account,
  reservation: Reservation,
  app: string,
  secondFactor?: SecondFactor,
): Promise<{ token: string; user: CurrentUser }> {
  ctx.identify({ userId: account.id });
  await releaseAttempt(ctx.db, reservation);
  if (account.status === 'blocked') {
    // A timed block that has ended is lifted here, where it is read: the owner signs in as usual.
    const due = account.blocked_until !== null && account.blocked_until <= Date.now();
    if (due) await liftDueBlocks(ctx.db, account.id);
    else {
      await logAttempt(ctx, phone, account, 'blocked');
      const until = account.blocked_until === null ? '' : `至 ${shanghaiTime(account.blocked_until)}（北京时间）`;
      throw fail.forbidden(`账号已被封禁${until}，请联系客服`);
    }
  }
  if (!secondFactor && (await hasSecondFactor(ctx.db, account.id))) {
    const held = newChallenge(account.id, app);
    // Kept even when the call's transaction rolls back (a registration resent with an Idempotency-Key).
    const challenge = await ctx.survivesFailure((db) => openChallenge(db, held));
    await logAttempt(ctx, phone, account, 'second_factor');
    throw new ApiError(Code.SECOND_FACTOR_REQUIRED, undefined, challenge);
  }
  const now = Date.now();
  await ctx.db
    .updateTable('users')
    .set({ last_login_at: now, last_active_at: now })
    .where('id', '=', account.id)
    .execute();
  const token = await createSession(ctx.db, account.id, { ip: ctx.ip, userAgent: ctx.userAgent, app });
  await logAttempt(ctx, phone, account, secondFactor === 'recovery' ? 'recovery_code' : 'success', secondFactor);
  return { token, user: await presentSessionUser(ctx.db, await readSessionUser(ctx.db, account.id, app)) };
}

/** A sign-in with phone and password digest to `app`: counted, checked, logged; a new session of that app when right. */
export async function signIn(
  ctx: RequestContext,
  phone: string,
  password: string,
  app: string,
): Promise<{ token: string; user: CurrentUser }> {
  const { account, reservation } = await beginAttempt(ctx, phone);
  // Unknown phone and wrong password answer alike, and take as long.
  const ok = await verifyPassword(account?.password_hash ?? (await decoyHash()), password);
  if (!account || !ok) {
    await logAttempt(ctx, phone, account, account ? 'wrong_password' : 'unknown_phone');
    throw fail.unauthenticated('手机号或密码错误');
  }
  return finishSignIn(ctx, phone, account, reservation, app);
}
