import type { JWSTransactionDecodedPayload, ResponseBodyV2DecodedPayload } from '@apple/app-store-server-library';
import type { AppRecord, AppRegistry } from '../../core/apps';
import { keepWithin } from '../../core/refusals';
import type { RequestContext } from '../../http/context';
import type { PaymentsConfig } from '../../payments-config';
import { takeBackGrant } from '../vip/public';
import { recordAppleTransaction } from './apple-record';
import { grantRef } from './record';
import { type Verified, verifyNotification, verifyTransaction } from './storekit';
import type { IapRecordDb } from './tables';

type Apple = NonNullable<PaymentsConfig['apple']>;
export interface Outcome {
  status: 'applied' | 'duplicate' | 'ignored' | 'rejected';
  reason: string | null;
}

/** Notification types that carry a new transaction to record and grant. */
const purchases = new Set(['DID_RENEW', 'SUBSCRIBED', 'ONE_TIME_CHARGE']);
/** Notification types that take a grant back. */
const takeBacks = new Set(['REFUND', 'REVOKE']);

async function keep(
  db: IapRecordDb,
  n: { uuid: string | null; type: string; subtype: string | null; transactionId: string | null; payload: unknown },
  outcome: Outcome,
): Promise<Outcome> {
  await db
    .insertInto('iap_notifications')
    .values({
      notification_uuid: n.uuid,
      type: n.type,
      subtype: n.subtype,
      transaction_id: n.transactionId,
      status: outcome.status,
      reason: outcome.reason,
      payload: n.payload === null ? null : JSON.stringify(n.payload),
      created_at: Date.now(),
    })
    .execute();
  return outcome;
}

/** Longest text kept of any one field a refused notification claims. */
const EXCERPT_CHARS = 64;

/** The few fields an operator needs of a refused notification, each cut short; nothing else is kept. */
export function refusedExcerpt(claimed: Record<string, unknown> | null): Record<string, string | null> {
  const cut = (v: unknown) =>
    typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, EXCERPT_CHARS) : null;
  const c = claimed ?? {};
  const data = c.data && typeof c.data === 'object' ? (c.data as Record<string, unknown>) : {};
  return {
    notificationType: cut(c.notificationType),
    subtype: cut(c.subtype),
    notificationUUID: cut(c.notificationUUID),
    environment: cut(data.environment),
    bundleId: cut(data.bundleId),
  };
}

/**
 * Keeps a notification whose signature was refused: only a short excerpt of what it claims, and
 * only within the hour's allowance for refused requests (per address and in all); past it
 * nothing is written, not even the count. The sender gets the same answer either way.
 */
export async function keepRefused(
  ctx: RequestContext,
  refused: { reason: string; claimed: Record<string, unknown> | null },
): Promise<Outcome> {
  const outcome: Outcome = { status: 'rejected', reason: refused.reason };
  const excerpt = refusedExcerpt(refused.claimed);
  const quota = { name: 'apple-notify', ip: ctx.ip, perAddressPerHour: 10, perHour: 100 };
  await keepWithin(ctx.db, quota, (trx) =>
    keep(
      trx,
      {
        uuid: null,
        type: excerpt.notificationType ?? '未知',
        subtype: excerpt.subtype,
        transactionId: null,
        payload: excerpt,
      },
      outcome,
    ),
  );
  return outcome;
}

/**
 * Applies a verified App Store Server Notification V2 inside the caller's transaction. Each
 * notification UUID is applied once: the row is claimed first, so a resent or racing copy finds
 * it and answers `duplicate`. A refund moves the granted record to refunded with one conditional
 * UPDATE and takes back what is left of its grant. `app` is the app whose settings verified it:
 * a purchase is recorded in it, and only its records are refunded.
 */
export async function applyNotification(
  db: IapRecordDb,
  app: string,
  n: ResponseBodyV2DecodedPayload,
  signedTransaction: Verified<JWSTransactionDecodedPayload> | null,
): Promise<Outcome> {
  const uuid = n.notificationUUID ?? null;
  const type = String(n.notificationType ?? '');
  const subtype = n.subtype ? String(n.subtype) : null;
  const claimed = await db
    .insertInto('iap_notifications')
    .values({
      notification_uuid: uuid,
      type,
      subtype,
      transaction_id: null,
      status: 'received',
      reason: null,
      payload: JSON.stringify(n),
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.column('notification_uuid').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return { status: 'duplicate', reason: '该通知已处理过' };
  const settle = async (outcome: Outcome, transactionId: string | null = null) => {
    await db
      .updateTable('iap_notifications')
      .set({ status: outcome.status, reason: outcome.reason, transaction_id: transactionId })
      .where('id', '=', claimed.id)
      .execute();
    return outcome;
  };
  if (!purchases.has(type) && !takeBacks.has(type))
    return settle({ status: 'ignored', reason: '这类通知不影响权益，未处理' });
  if (!signedTransaction) return settle({ status: 'rejected', reason: '通知中没有签名交易' });
  if (!signedTransaction.ok) return settle({ status: 'rejected', reason: `通知中的交易${signedTransaction.reason}` });
  const tx = signedTransaction.decoded;
  const transactionId = String(tx.transactionId ?? '');
  if (purchases.has(type)) {
    const recorded = await recordAppleTransaction(db, { userId: null, app, verified: signedTransaction });
    if (recorded.duplicate) {
      return settle({ status: 'duplicate', reason: '该交易已记录过，未重复发放' }, transactionId);
    }
    const kept = await db
      .selectFrom('iap_records')
      .select('status')
      .where('id', '=', recorded.id)
      .executeTakeFirstOrThrow();
    const waiting = kept.status === 'pending' ? '，等待 App 提交后发放' : '';
    return settle({ status: 'applied', reason: `已记录为内购记录 #${recorded.id}${waiting}` }, transactionId);
  }
  const now = Date.now();
  const refunded = await db
    .updateTable('iap_records')
    .set({ status: 'refunded', refunded_at: now, updated_at: now, reason: `${type === 'REFUND' ? '退款' : '撤销'}` })
    .where('platform', '=', 'ios')
    .where('transaction_id', '=', transactionId)
    .where('app', '=', app)
    // A transaction still waiting for the app's post is refunded too, so that post grants nothing.
    .where('status', 'in', ['granted', 'pending'])
    .returning(['id', 'user_id', 'app', 'vip_days', 'coins'])
    .executeTakeFirst();
  if (!refunded) return settle({ status: 'ignored', reason: '没有对应的已发放记录（可能已退款）' }, transactionId);
  if (refunded.user_id === null) {
    return settle({ status: 'applied', reason: `内购记录 #${refunded.id} 尚未发放，已标为已退款` }, transactionId);
  }
  const outcome = await takeBackGrant(db, {
    userId: refunded.user_id,
    app: refunded.app,
    days: refunded.vip_days,
    coins: Number(refunded.coins),
    source: 'iap',
    refId: grantRef('ios', transactionId),
    note: `App Store ${type === 'REFUND' ? '退款' : '撤销'}`,
  });
  const lost =
    outcome.coinsNotTaken > 0 || outcome.vipNotTakenMs > 0
      ? `；已使用无法收回：金币 ${outcome.coinsNotTaken}，会员 ${Math.round(outcome.vipNotTakenMs / 3_600_000)} 小时`
      : '';
  return settle({ status: 'applied', reason: `已收回内购记录 #${refunded.id} 的权益${lost}` }, transactionId);
}

/**
 * The app a notification is verified for: the one whose App Store settings name the bundle id it
 * claims. For a bundle no app has, the default app's settings (or the first configured app's)
 * refuse it, as they refuse a wrong bundle. Disabled apps included: their refunds still apply.
 */
export async function appleAppFor(
  apps: AppRegistry,
  claimedBundleId: unknown,
): Promise<{ app: AppRecord; apple: Apple } | undefined> {
  const configured = (await apps.all()).flatMap((app) => {
    const apple = apps.payments(app).apple;
    return apple ? [{ app, apple }] : [];
  });
  return (
    configured.find((c) => c.apple.bundleId === claimedBundleId) ??
    configured.find((c) => c.app.isDefault) ??
    configured[0]
  );
}

/** Verifies a notification and the transaction inside it (outside any database transaction: CPU work). */
export async function verifyNotificationParts(apple: Apple, signedPayload: string) {
  const verified = await verifyNotification(apple, signedPayload);
  const inner = verified.ok ? verified.decoded.data?.signedTransactionInfo : undefined;
  const signedTransaction = inner ? await verifyTransaction(apple, inner) : null;
  return { verified, signedTransaction };
}
