import { VIP_LIFETIME_MS, type VipReason } from '@appdesk/contract/constants';
import { lockMoney } from '../../core/money-lock';
import type { Db } from '../../db/index';
import { fail } from '../../http/errors';

export const DAY_MS = 86_400_000;

export interface VipChange {
  userId: number;
  /** The app whose VIP changes: the app of the business record behind it (order, receipt, item). */
  app: string;
  /**
   * Positive: extend by this many days from the later of now and the current expiry. Negative:
   * take back up to this many days from the current expiry (never below now: time already used
   * cannot be taken back). `'lifetime'` sets the expiry to VIP_LIFETIME_MS.
   */
  days: number | 'lifetime';
  /**
   * Taking back a lifetime grant: the expiry goes back to this (the expiry before the grant),
   * never below now and never above the current one. `days` is then ignored and recorded as null.
   */
  restoreTo?: number | null;
  reason: VipReason;
  /** The business record behind the change; (reason, refType, refId) can happen only once. */
  refType?: string | null;
  refId?: string | number | null;
  operatorId?: number | null;
  note?: string | null;
}

export interface VipResult {
  before: number | null;
  after: number | null;
  /** Milliseconds actually added (negative when taken back). */
  changedMs: number;
  recordId: number;
}

/** The expiry a change leads to, from the current one, at `now`. */
export function nextExpiry(current: number | null, days: number | 'lifetime', now: number): number | null {
  if (days === 'lifetime') return VIP_LIFETIME_MS;
  if (current === VIP_LIFETIME_MS && days > 0) return VIP_LIFETIME_MS;
  if (days > 0) return Math.min(Math.max(now, current ?? 0) + days * DAY_MS, VIP_LIFETIME_MS);
  // Taking back: only the part still ahead of now can go.
  if (current === null || current <= now) return current;
  return Math.max(now, current + days * DAY_MS);
}

/**
 * The one way a VIP expiry changes (like core/ledger.ts for coins): a user's expiry in one app
 * (vip_entitlements). Must run inside the caller's
 * transaction, so the change and the record of why commit together. The user row is locked
 * first, in the money paths' one lock order (core/money-lock.ts; SQLite's single writer), so concurrent grants extend one after the
 * other and never from the same old expiry. Every change leaves a `vip_records` row with the
 * expiry before and after; a second change for the same (reason, refType, refId) is refused by
 * the database's unique index.
 */
export async function changeVip(trx: Db, change: VipChange): Promise<VipResult> {
  if (!trx.isTransaction) throw new Error('changeVip must run inside a transaction');
  if (change.days !== 'lifetime' && (!Number.isSafeInteger(change.days) || change.days === 0)) {
    throw new Error('VIP days must be a non-zero integer');
  }
  const now = Date.now();
  // Touching the user row takes its lock on PostgreSQL first (the money paths' one lock order),
  // so the expiry below is read by one grant at a time.
  const locked = await trx
    .updateTable('users')
    .set({ updated_at: now })
    .where('id', '=', change.userId)
    .returning('id')
    .executeTakeFirst();
  if (!locked) throw fail.notFound('用户不存在');
  await lockMoney(trx, change.userId, true);
  const current = await trx
    .selectFrom('vip_entitlements')
    .select('expires_at')
    .where('user_id', '=', change.userId)
    .where('app', '=', change.app)
    .executeTakeFirst();
  const before = current === undefined ? null : Number(current.expires_at);
  const after =
    change.restoreTo !== undefined
      ? before === null || before <= now
        ? before
        : Math.min(before, Math.max(now, change.restoreTo ?? now))
      : nextExpiry(before, change.days, now);
  if (after !== null && after !== before) {
    await trx
      .insertInto('vip_entitlements')
      .values({ user_id: change.userId, app: change.app, expires_at: after, updated_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'app']).doUpdateSet({ expires_at: after, updated_at: now }))
      .execute();
  }
  const refId = change.refId === undefined || change.refId === null ? null : String(change.refId);
  // The VIP time still ahead, before and after: what the change really added or took back.
  const changedMs = Math.max(after ?? now, now) - Math.max(before ?? now, now);
  const record = await trx
    .insertInto('vip_records')
    .values({
      user_id: change.userId,
      app: change.app,
      days: change.days === 'lifetime' || change.restoreTo !== undefined ? null : change.days,
      before_expires_at: before,
      after_expires_at: after,
      reason: change.reason,
      ref_type: change.refType ?? null,
      ref_id: refId,
      operator_id: change.operatorId ?? null,
      note: change.note ?? null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { before, after, changedMs, recordId: record.id };
}
