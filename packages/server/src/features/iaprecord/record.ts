import type { JWSTransactionDecodedPayload } from '@apple/app-store-server-library';
import type { Selectable } from 'kysely';
import { applyGrant } from '../../core/grants';
import { lockMoney } from '../../core/money-lock';
import type { Db } from '../../db/index';
import type { Database } from '../../db/schema';
import type { PlayVerdict } from './googleplay';
import { claimedPayload, type Verified } from './storekit';

export interface Recorded {
  id: number;
  /** The transaction had been recorded before: nothing was granted again. */
  duplicate: boolean;
}

/** The grant's source id on the VIP and coin ledgers: one per store transaction. */
export const grantRef = (platform: string, transactionId: string) => `${platform}:${transactionId}`;

const now = () => Date.now();

/** A receipt that is not accepted: kept with its reason, holding no transaction id. */
async function insertRefused(
  db: Db,
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

/** The user who made the first purchase of a subscription (renewals and notifications carry no user). */
export async function buyerOf(db: Db, originalTransactionId: string): Promise<number | null> {
  const first = await db
    .selectFrom('iap_records')
    .select('user_id')
    .where('platform', '=', 'ios')
    .where('original_transaction_id', '=', originalTransactionId)
    .where('user_id', 'is not', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return first?.user_id ?? null;
}

/**
 * Records a StoreKit transaction inside the caller's transaction and grants its product once:
 * the unique (platform, transaction_id) index lets exactly one insert through, however many
 * copies race; only that one grants. Refused receipts are kept with the reason.
 */
export async function recordAppleTransaction(
  db: Db,
  input: { userId: number | null; app: string; verified: Verified<JWSTransactionDecodedPayload> },
): Promise<Recorded> {
  const v = input.verified;
  if (!v.ok) {
    const c = v.claimed ?? {};
    const text = (k: string) => (typeof c[k] === 'string' || typeof c[k] === 'number' ? String(c[k]) : null);
    return insertRefused(
      db,
      { ...input, platform: 'ios', productId: text('productId') ?? '', claimedId: text('transactionId') },
      'rejected',
      v.reason,
      v.claimed,
      { environment: text('environment') },
    );
  }
  const tx = v.decoded;
  const transactionId = String(tx.transactionId ?? '');
  const productId = String(tx.productId ?? '');
  const originalId = tx.originalTransactionId ? String(tx.originalTransactionId) : null;
  const base = { userId: input.userId, app: input.app, platform: 'ios', productId, claimedId: transactionId };
  const extra = { originalId, environment: tx.environment ? String(tx.environment) : null };
  const userId = input.userId ?? (originalId ? await buyerOf(db, originalId) : null);
  if (userId === null) {
    return insertRefused(db, base, 'pending', '找不到购买用户：App 尚未提交这笔订阅的首次购买', tx, extra);
  }
  if (tx.revocationDate) return insertRefused(db, base, 'rejected', '该交易已被撤销或退款', tx, extra);
  const product = await db
    .selectFrom('iap_products')
    .selectAll()
    .where('app', '=', input.app)
    .where('platform', '=', 'ios')
    .where('product_id', '=', productId)
    .executeTakeFirst();
  if (!product) return insertRefused(db, { ...base, userId }, 'rejected', `未知的内购商品：${productId}`, tx, extra);
  if (product.enabled !== 1) {
    return insertRefused(db, { ...base, userId }, 'rejected', `内购商品已停用：${productId}`, tx, extra);
  }
  await lockMoney(db, userId);
  const inserted = await db
    .insertInto('iap_records')
    .values({
      user_id: userId,
      app: input.app,
      platform: 'ios',
      product_id: productId,
      transaction_id: transactionId,
      claimed_transaction_id: transactionId,
      original_transaction_id: originalId,
      environment: extra.environment,
      status: 'granted',
      reason: null,
      vip_days: product.vip_days,
      coins: Number(product.coins),
      purchased_at: tx.purchaseDate ?? null,
      expires_at: tx.expiresDate ?? null,
      refunded_at: null,
      payload: JSON.stringify(tx),
      created_at: now(),
      updated_at: now(),
    })
    .onConflict((oc) => oc.columns(['platform', 'transaction_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return earlierRecord(db, 'ios', transactionId);
  await applyGrant(db, {
    userId,
    days: product.vip_days,
    coins: Number(product.coins),
    source: 'iap',
    refId: grantRef('ios', transactionId),
    note: `内购 ${product.name}`,
  });
  return { id: inserted.id, duplicate: false };
}

/** App Store verification is not configured: the receipt is kept pending, as it claims to be. */
export function recordUnverifiable(db: Db, input: { userId: number; app: string; jws: string }): Promise<Recorded> {
  const claimed = claimedPayload(input.jws);
  const text = (k: string) => (claimed && claimed[k] != null ? String(claimed[k]) : null);
  return insertRefused(
    db,
    { ...input, platform: 'ios', productId: text('productId') ?? '', claimedId: text('transactionId') },
    'pending',
    '服务器未配置 App Store 验证（APPLE_BUNDLE_ID、APPLE_ROOT_CERTIFICATES），配置后由 App 重新提交即可发放',
    claimed,
    { environment: text('environment') },
  );
}

/** A one-time Google Play purchase granted earlier for this token: answered without asking Google again. */
export async function grantedGooglePurchase(db: Db, purchaseToken: string): Promise<Recorded | null> {
  const earlier = await db
    .selectFrom('iap_records')
    .select('id')
    .where('platform', '=', 'android')
    .where('claimed_transaction_id', '=', purchaseToken)
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
 * no transaction id, so the app may post the purchase again.
 */
export async function recordGooglePurchase(
  db: Db,
  input: {
    userId: number;
    app: string;
    productId: string;
    purchaseToken: string;
    /** null: verification is not configured. */
    verdict: PlayVerdict | null;
    product: Selectable<Database['iap_products']> | undefined;
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
  const v = input.verdict;
  if (v === null) return keepUnverified(db, base, claimed);
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
  if (!inserted) return earlierRecord(db, 'android', v.orderId);
  await applyGrant(db, {
    userId: input.userId,
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
  db: Db,
  r: { userId: number; app: string; productId: string; claimedId: string },
  claimed: object,
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
      environment: null,
      status: 'pending',
      reason: '服务器未配置 Google Play 验证（GOOGLE_PLAY_SERVICE_ACCOUNT），待人工核对',
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
  return inserted ? { id: inserted.id, duplicate: false } : earlierRecord(db, 'android', r.claimedId);
}

async function earlierRecord(db: Db, platform: string, transactionId: string): Promise<Recorded> {
  const earlier = await db
    .selectFrom('iap_records')
    .select('id')
    .where('platform', '=', platform)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirstOrThrow();
  return { id: earlier.id, duplicate: true };
}
