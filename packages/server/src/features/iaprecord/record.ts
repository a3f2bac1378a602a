import { lockMoney } from '../../core/money-lock';
import type { IapProduct } from '../iap/public';
import { applyGrant } from '../vip/public';
import type { PlayVerdict } from './googleplay';
import type { IapRecordDb } from './tables';

export interface Recorded {
  id: number;
  /** The transaction had been recorded before: nothing was granted again. */
  duplicate: boolean;
}

/** The grant's source id on the VIP and coin ledgers: one per store transaction. */
export const grantRef = (platform: string, transactionId: string) => `${platform}:${transactionId}`;

export const now = () => Date.now();

/** A receipt that is not accepted: kept with its reason, holding no transaction id. */
export async function insertRefused(
  db: IapRecordDb,
  r: { userId: number | null; app: string; platform: string; productId: string; claimedId: string | null },
  status: 'rejected' | 'pending',
  reason: string,
  payload: unknown,
  extra: { originalId?: string | null; environment?: string | null } = {},
): Promise<Recorded> {
  const { id } = await db
    .insertInto('iap_records')
    .values({
      user_id: r.userId,
      app: r.app,
      platform: r.platform,
      product_id: r.productId,
      transaction_id: null,
      claimed_transaction_id: r.claimedId,
      original_transaction_id: extra.originalId ?? null,
      app_account_token: null,
      environment: extra.environment ?? null,
      status,
      reason,
      vip_days: 0,
      coins: 0,
      purchased_at: null,
      expires_at: null,
      refunded_at: null,
      payload: payload === null ? null : JSON.stringify(payload),
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, duplicate: false };
}

/** Why another account's purchase grants nothing (the poster is told no more than this). */
export const FOREIGN = '这笔购买属于其他账号，未发放';

/**
 * The account a Google Play purchase token belongs to: the one whose post of it was first
 * accepted (granted, refunded, or kept pending while verification is off), or null.
 */
export async function googleTokenOwner(db: IapRecordDb, purchaseToken: string): Promise<number | null> {
  const first = await db
    .selectFrom('iap_records')
    .select('user_id')
    .where('platform', '=', 'android')
    .where('claimed_transaction_id', '=', purchaseToken)
    .where('transaction_id', 'is not', null)
    .where('user_id', 'is not', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return first?.user_id ?? null;
}

/** A one-time Google Play purchase this account was granted earlier: answered without asking Google again. */
export async function grantedGooglePurchase(
  db: IapRecordDb,
  purchaseToken: string,
  userId: number,
): Promise<Recorded | null> {
  const earlier = await db
    .selectFrom('iap_records')
    .select('id')
    .where('platform', '=', 'android')
    .where('claimed_transaction_id', '=', purchaseToken)
    .where('user_id', '=', userId)
    .where('status', 'in', ['granted', 'refunded'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return earlier ? { id: earlier.id, duplicate: true } : null;
}

/**
 * Records a Google Play purchase inside the caller's transaction. Without verification (no
 * service account) it is kept pending once per purchase token. A verified purchase is recorded
 * under Google's order id and granted once per order (a subscription renewal is a new order),
 * through the same unique index as App Store transactions; refusals keep their reason and hold
 * no transaction id, so the app may post the purchase again. A token belongs to the first account
 * it was accepted for: posted by another, it is refused (its renewals included).
 */
export async function recordGooglePurchase(
  db: IapRecordDb,
  input: {
    userId: number;
    app: string;
    productId: string;
    purchaseToken: string;
    /** null: verification is not configured. */
    verdict: PlayVerdict | null;
    product: IapProduct | undefined;
  },
): Promise<Recorded> {
  const base = {
    userId: input.userId,
    app: input.app,
    platform: 'android',
    productId: input.productId,
    claimedId: input.purchaseToken,
  };
  const claimed = { productId: input.productId, purchaseToken: input.purchaseToken };
  const refuseForeign = () => insertRefused(db, base, 'rejected', FOREIGN, claimed);
  const owner = await googleTokenOwner(db, input.purchaseToken);
  if (owner !== null && owner !== input.userId) return refuseForeign();
  const v = input.verdict;
  if (v === null) return keepUnverified(db, base, claimed, refuseForeign);
  if (!v.ok) return insertRefused(db, base, v.final ? 'rejected' : 'pending', v.reason, v.payload ?? claimed);
  const product = input.product;
  if (!product) throw new Error('a verified Google Play purchase needs its product');
  await lockMoney(db, input.userId);
  const inserted = await db
    .insertInto('iap_records')
    .values({
      user_id: input.userId,
      app: input.app,
      platform: 'android',
      product_id: input.productId,
      transaction_id: v.orderId,
      claimed_transaction_id: input.purchaseToken,
      original_transaction_id: null,
      app_account_token: null,
      environment: v.environment,
      status: 'granted',
      reason: null,
      vip_days: product.vip_days,
      coins: Number(product.coins),
      purchased_at: v.purchasedAt,
      expires_at: v.expiresAt,
      refunded_at: null,
      payload: JSON.stringify(v.payload),
      created_at: now(),
      updated_at: now(),
    })
    .onConflict((oc) => oc.columns(['platform', 'transaction_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return earlierRecord(db, 'android', v.orderId, input.userId, refuseForeign);
  await applyGrant(db, {
    userId: input.userId,
    app: input.app,
    days: product.vip_days,
    coins: Number(product.coins),
    source: 'iap',
    refId: grantRef('android', v.orderId),
    note: `内购 ${product.name}`,
  });
  return { id: inserted.id, duplicate: false };
}

/** Verification is off: kept pending once per purchase token, for someone to check by hand. */
async function keepUnverified(
  db: IapRecordDb,
  r: { userId: number; app: string; productId: string; claimedId: string },
  claimed: object,
  refuseForeign: () => Promise<Recorded>,
): Promise<Recorded> {
  const inserted = await db
    .insertInto('iap_records')
    .values({
      user_id: r.userId,
      app: r.app,
      platform: 'android',
      product_id: r.productId,
      transaction_id: r.claimedId,
      claimed_transaction_id: r.claimedId,
      original_transaction_id: null,
      app_account_token: null,
      environment: null,
      status: 'pending',
      reason: '服务器未配置 Google Play 校验，待人工核对',
      vip_days: 0,
      coins: 0,
      purchased_at: null,
      expires_at: null,
      refunded_at: null,
      payload: JSON.stringify(claimed),
      created_at: now(),
      updated_at: now(),
    })
    .onConflict((oc) => oc.columns(['platform', 'transaction_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted
    ? { id: inserted.id, duplicate: false }
    : earlierRecord(db, 'android', r.claimedId, r.userId, refuseForeign);
}

/**
 * The record that already holds a transaction id (a racing copy inserted it first): a repeat for
 * its own account, a refusal for another one, which is never shown the holder's record.
 */
export async function earlierRecord(
  db: IapRecordDb,
  platform: string,
  transactionId: string,
  userId: number,
  refuseForeign: () => Promise<Recorded>,
): Promise<Recorded> {
  const earlier = await db
    .selectFrom('iap_records')
    .select(['id', 'user_id'])
    .where('platform', '=', platform)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirstOrThrow();
  return earlier.user_id === userId ? { id: earlier.id, duplicate: true } : refuseForeign();
}
