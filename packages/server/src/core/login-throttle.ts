import { sql } from 'kysely';
import type { Db } from '../db/index';
import { fail } from '../http/errors';

/**
 * Sign-in throttling, kept in the database so restarts and several server processes share it.
 *
 * Three counters per attempt, each a fixed window that locks its key for one window once full:
 * - `pair`: one phone from one address. The tight limit: it stops a guesser without touching
 *   the owner, who signs in from elsewhere.
 * - `ip`: one address, whatever the phone (a guesser spraying many phones).
 * - `phone`: one phone from anywhere, at a much higher limit (a guesser rotating addresses). A
 *   known device (the request carries a live session token of that same account) is exempt from
 *   it, so an attacker cannot keep the owner out; `npm run unlock -- <phone>` clears it too.
 *
 * An attempt is counted before the slow password check (a reservation), so however many are sent
 * at once, at most the limit's number reach the check; a success hands its reservation back. It
 * is counted narrowest first and no further than the first counter past its limit.
 */
export const throttleRules = {
  pair: { maxFailures: 10, windowMs: 15 * 60 * 1000 },
  ip: { maxFailures: 50, windowMs: 15 * 60 * 1000 },
  phone: { maxFailures: 100, windowMs: 60 * 60 * 1000 },
} as const;

type Kind = keyof typeof throttleRules;

/**
 * What second-factor codes are counted under in place of the phone (the sign-in's second step, and
 * a code given to turn the factor off or renew recovery codes): the same limits as passwords, on
 * counters of their own, so a right password never forgives wrong codes (which would let someone
 * who knows the password guess codes for ever, ten at a time).
 */
export const secondFactorKey = (phone: string): string => `${phone}/totp`;

interface Counter {
  kind: Kind;
  key: string;
}

function countersFor(phone: string, ip: string, knownDevice: boolean): Counter[] {
  const counters: Counter[] = [
    { kind: 'pair', key: `pair:${phone}@${ip}` },
    { kind: 'ip', key: `ip:${ip}` },
  ];
  if (!knownDevice) counters.push({ kind: 'phone', key: `phone:${phone}` });
  return counters;
}

function lockedAnswer(kind: Kind, lockedUntil: number, now: number) {
  const minutes = Math.max(1, Math.ceil((lockedUntil - now) / 60_000));
  if (kind === 'phone') {
    return fail.tooMany(`该手机号登录失败次数过多，已临时锁定，请 ${minutes} 分钟后再试，或在已登录过的设备上登录`);
  }
  return fail.tooMany(`登录失败次数过多，请 ${minutes} 分钟后再试`);
}

/** Longest window of any counter: a row older than this that holds no lock counts for nothing. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(throttleRules).map((r) => r.windowMs));
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const lastPrune = new WeakMap<Db, number>();

/** Forgets counters whose window and lock are over (at most every ten minutes per database handle). */
async function pruneOldCounters(db: Db, now: number): Promise<void> {
  if (now - (lastPrune.get(db) ?? 0) < PRUNE_EVERY_MS) return;
  lastPrune.set(db, now);
  await db
    .deleteFrom('login_attempts')
    .where('window_start', '<', now - LONGEST_WINDOW_MS)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
    .execute();
}

/** A counted attempt: hand it back with `release` when the password was right. */
export interface Reservation {
  counters: { key: string; windowStart: number }[];
}

/**
 * Counts one attempt against every counter (atomic upserts) before the password is checked.
 * Answers 429 (saying when to retry) if a counter is locked, or if this attempt is past its limit.
 */
export async function reserveAttempt(
  db: Db,
  phone: string,
  ip: string,
  options: { knownDevice?: boolean } = {},
): Promise<Reservation> {
  const now = Date.now();
  await pruneOldCounters(db, now);
  const counters = countersFor(phone, ip, options.knownDevice ?? false);
  const locked = await db
    .selectFrom('login_attempts')
    .select(['key', 'locked_until'])
    .where(
      'key',
      'in',
      counters.map((c) => c.key),
    )
    .where('locked_until', '>', now)
    .execute();
  if (locked.length > 0) {
    const worst = locked.reduce((a, b) => ((a.locked_until ?? 0) >= (b.locked_until ?? 0) ? a : b));
    const kind = counters.find((c) => c.key === worst.key)?.kind ?? 'pair';
    throw lockedAnswer(kind, worst.locked_until ?? now, now);
  }
  const reservation: Reservation = { counters: [] };
  // In order, narrowest first: the first counter past its limit refuses the attempt, and the wider
  // ones after it never count it. A burst from one address then costs that address (its pair),
  // not the phone-wide counter that keeps the owner out everywhere.
  for (const { kind, key } of counters) {
    const rule = throttleRules[kind];
    const windowOver = sql<boolean>`${now} - login_attempts.window_start >= ${rule.windowMs}`;
    const failures = sql<number>`case when ${windowOver} then 1 else login_attempts.failures + 1 end`;
    const row = await db
      .insertInto('login_attempts')
      .values({ key, failures: 1, window_start: now, locked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures,
          window_start: sql`case when ${windowOver} then ${now} else login_attempts.window_start end`,
          // The attempt that fills the window locks the key for one window from now.
          locked_until: sql`case when ${failures} >= ${rule.maxFailures}
            and (login_attempts.locked_until is null or login_attempts.locked_until <= ${now})
            then ${now + rule.windowMs} else login_attempts.locked_until end`,
        }),
      )
      .returning(['failures', 'window_start', 'locked_until'])
      .executeTakeFirstOrThrow();
    if (Number(row.failures) > rule.maxFailures) {
      throw lockedAnswer(kind, Number(row.locked_until ?? now + rule.windowMs), now);
    }
    reservation.counters.push({ key, windowStart: Number(row.window_start) });
  }
  return reservation;
}

/**
 * The password was right: the attempt no longer counts. The pair's earlier failures are forgiven
 * too (the owner mistyped from this address); the address and phone-wide counters only lose this
 * attempt, so a success never hands a guesser elsewhere a fresh budget.
 */
export async function releaseAttempt(db: Db, reservation: Reservation): Promise<void> {
  for (const { key, windowStart } of reservation.counters) {
    if (key.startsWith('pair:')) {
      await db.deleteFrom('login_attempts').where('key', '=', key).execute();
      continue;
    }
    const kind: Kind = key.startsWith('ip:') ? 'ip' : 'phone';
    const remaining = sql<number>`case when login_attempts.failures > 0 then login_attempts.failures - 1 else 0 end`;
    await db
      .updateTable('login_attempts')
      .set({
        failures: remaining,
        locked_until: sql`case when ${remaining} < ${throttleRules[kind].maxFailures} then null else login_attempts.locked_until end`,
      })
      .where('key', '=', key)
      .where('window_start', '=', windowStart)
      .execute();
  }
}

/**
 * The command-line recovery (`npm run unlock -- <phone or address>`): forgets every counter of a
 * phone (phone-wide and per address, passwords and second-factor codes) or of an address. Answers how many counters it removed.
 */
export async function clearLocks(db: Db, target: { phone: string } | { ip: string }): Promise<number> {
  const rows =
    'phone' in target
      ? await db
          .deleteFrom('login_attempts')
          .where((eb) =>
            eb.or(
              [target.phone, secondFactorKey(target.phone)].flatMap((key) => [
                eb('key', '=', `phone:${key}`),
                eb('key', 'like', `pair:${key}@%`),
              ]),
            ),
          )
          .executeTakeFirst()
      : await db
          .deleteFrom('login_attempts')
          .where((eb) => eb.or([eb('key', '=', `ip:${target.ip}`), eb('key', 'like', `pair:%@${target.ip}`)]))
          .executeTakeFirst();
  return Number(rows.numDeletedRows);
}
