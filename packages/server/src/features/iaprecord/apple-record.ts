import type { JWSTransactionDecodedPayload } from '@apple/app-store-server-library';
import { lockMoney } from '../../core/money-lock';
import { findProduct } from '../iap/public';
import { applyGrant } from '../vip/public';
import { FOREIGN, grantRef, insertRefused, now, type Recorded } from './record';
import { claimedPayload, type Verified } from './storekit';
import type { IapRecordDb } from './tables';

/** A transaction a notification brought before any account could be named: the app's post claims it. */
export const AWAITING = '等待 App 提交：服务器通知先到，尚不知道这笔购买属于哪个账号，App 提交后即发放';

interface Holder {
  id: number;
  user_id: number | null;
  status: string;
}

/** The record holding a transaction id (accepted receipts only hold one). */
const holderOf = (db: IapRecordDb, transactionId: string): Promise<Holder | undefined> =>
  db
    .selectFrom('iap_records')
    .select(['id', 'user_id', 'status'])
    .where('platform', '=', 'ios')
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();

/**
 * The account a transaction is already bound to: its subscription's first buyer (the first
 * accepted record of its original transaction id), else the account that first presented its
 * appAccountToken. Refused records bind nothing.
 */
async function boundAccounts(
  db: IapRecordDb,
  originalId: string | null,
  accountToken: string | null,
): Promise<number[]> {
  const firstBy = async (column: 'original_transaction_id' | 'app_account_token', value: string | null) => {
    if (!value) return null;
    const first = await db
      .selectFrom('iap_records')
      .select('user_id')
      .where('platform', '=', 'ios')
      .where(column, '=', value)
      .where('transaction_id', 'is not', null)
      .where('user_id', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return first?.user_id ?? null;
  };
  const bound = [
    await firstBy('original_transaction_id', originalId),
    await firstBy('app_account_token', accountToken),
  ];
  return [...new Set(bound.filter((id): id is number => id !== null))];
}

/**
 * Records a StoreKit transaction inside the caller's transaction and grants its product once:
 * the unique (platform, transaction_id) index lets exactly one record hold it, however many
 * copies race; only that one grants. Refused receipts are kept with the reason.
 *
 * A transaction belongs to one account. The app's post (`userId` set) is refused when the
 * transaction, its subscription or its appAccountToken is already another account's; that
 * account is never named. A notification (`userId` null) grants to the bound account, or leaves
 * the transaction waiting, holding its id, for the app's post to claim: one record either way.
 */
export async function recordAppleTransaction(
  db: IapRecordDb,
  input: { userId: number | null; app: string; verified: Verified<JWSTransactionDecodedPayload> },
  attempt = 1,
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
  const accountToken =
    typeof tx.appAccountToken === 'string' && tx.appAccountToken ? tx.appAccountToken.toLowerCase() : null;
  const base = { userId: input.userId, app: input.app, platform: 'ios', productId, claimedId: transactionId };
  const extra = { originalId, environment: tx.environment ? String(tx.environment) : null };
  const holder = await holderOf(db, transactionId);
  const bound = await boundAccounts(db, originalId, accountToken);
  let userId: number;
  if (input.userId === null) {
    if (holder) return { id: holder.id, duplicate: true };
    if (bound.length === 0) return insertAwaiting(db, base, tx, extra);
    userId = bound[0];
  } else {
    if (holder && holder.user_id === input.userId) return { id: holder.id, duplicate: true };
    if ((holder && holder.user_id !== null) || bound.some((id) => id !== input.userId)) {
      return insertRefused(db, base, 'rejected', FOREIGN, tx, extra);
    }
    userId = input.userId;
  }
  // A waiting record is claimed by the post: its refusal or its grant is written on it.
  const waiting = holder?.user_id === null ? holder : null;
  const refuse = async (reason: string): Promise<Recorded> => {
    if (!waiting) return insertRefused(db, { ...base, userId }, 'rejected', reason, tx, extra);
    await db
      .updateTable('iap_records')
      .set({ user_id: userId, status: 'rejected', reason, transaction_id: null, updated_at: now() })
      .where('id', '=', waiting.id)
      .execute();
    return { id: waiting.id, duplicate: false };
  };
  if (waiting && waiting.status !== 'pending') {
    // Refunded before the app posted it: the poster's now, as refunded, with nothing granted.
    await db
      .updateTable('iap_records')
      .set({ user_id: userId, updated_at: now() })
      .where('id', '=', waiting.id)
      .execute();
    return { id: waiting.id, duplicate: true };
  }
  if (tx.revocationDate) return refuse('该交易已被撤销或退款');
  const product = await findProduct(db, { app: input.app, platform: 'ios', productId });
  if (!product) return refuse(`未知的内购商品：${productId}`);
  if (product.enabled !== 1) return refuse(`内购商品已停用：${productId}`);
  await lockMoney(db, userId);
  const granted = {
    user_id: userId,
    app_account_token: accountToken,
    status: 'granted',
    reason: null,
    vip_days: product.vip_days,
    coins: Number(product.coins),
    updated_at: now(),
  };
  const written = waiting
    ? await db
        .updateTable('iap_records')
        .set({ ...granted, app: input.app })
        .where('id', '=', waiting.id)
        .where('user_id', 'is', null)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst()
    : await db
        .insertInto('iap_records')
        .values({
          ...granted,
          app: input.app,
          platform: 'ios',
          product_id: productId,
          transaction_id: transactionId,
          claimed_transaction_id: transactionId,
          original_transaction_id: originalId,
          environment: extra.environment,
          purchased_at: tx.purchaseDate ?? null,
          expires_at: tx.expiresDate ?? null,
          refunded_at: null,
          payload: JSON.stringify(tx),
          created_at: now(),
        })
        .onConflict((oc) => oc.columns(['platform', 'transaction_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
  if (!written) {
    // A racing copy wrote the record first (it committed while this one waited): decide again.
    // A record only moves forward (none → waiting → an account's), so two retries suffice.
    if (attempt >= 3) throw new Error(`StoreKit transaction ${transactionId} kept changing while recorded`);
    return recordAppleTransaction(db, input, attempt + 1);
  }
  await applyGrant(db, {
    userId,
    app: input.app,
    days: product.vip_days,
    coins: Number(product.coins),
    source: 'iap',
    refId: grantRef('ios', transactionId),
    note: `内购 ${product.name}`,
  });
  return { id: written.id, duplicate: false };
}

/** A notification's transaction that no account can be named for yet: kept pending, holding its id. */
async function insertAwaiting(
  db: IapRecordDb,
  base: { app: string; productId: string; claimedId: string },
  tx: JWSTransactionDecodedPayload,
  extra: { originalId: string | null; environment: string | null },
): Promise<Recorded> {
  const inserted = await db
    .insertInto('iap_records')
    .values({
      user_id: null,
      app: base.app,
      platform: 'ios',
      product_id: base.productId,
      transaction_id: base.claimedId,
      claimed_transaction_id: base.claimedId,
      original_transaction_id: extra.originalId,
      app_account_token: null,
      environment: extra.environment,
      status: 'pending',
      reason: AWAITING,
      vip_days: 0,
      coins: 0,
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
  if (inserted) return { id: inserted.id, duplicate: false };
  const holder = await holderOf(db, base.claimedId);
  if (!holder) throw new Error(`StoreKit transaction ${base.claimedId} has no record after a conflict`);
  return { id: holder.id, duplicate: true };
}

/** App Store verification is not configured: the receipt is kept pending, as it claims to be. */
export function recordUnverifiable(
  db: IapRecordDb,
  input: { userId: number; app: string; jws: string },
): Promise<Recorded> {
  const claimed = claimedPayload(input.jws);
  const text = (k: string) => (claimed && claimed[k] != null ? String(claimed[k]) : null);
  return insertRefused(
    db,
    { ...input, platform: 'ios', productId: text('productId') ?? '', claimedId: text('transactionId') },
    'pending',
    '服务器未配置 App Store 校验，配置后由 App 重新提交即可发放',
    claimed,
    { environment: text('environment') },
  );
}
