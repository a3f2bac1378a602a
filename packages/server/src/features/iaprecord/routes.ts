import { iapRecord } from '@appdesk/contract/endpoints/iaprecord';
import type { AppRecord } from '../../core/apps';
import { countedTotal, iso, keptTotal, pageAnswer, shanghaiTime } from '../../db/paging';
import { appScope, mustSee } from '../../http/app-scope';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedHandler, platformWord, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { findProduct } from '../iap/public';
import { recordAppleTransaction, recordUnverifiable } from './apple-record';
import { googlePlayFor, type PlayPurchase, type PlayVerdict } from './googleplay';
import { appleAppFor, applyNotification, keepRefused, verifyNotificationParts } from './notifications';
import { filteredRecords, loadRecord, presentRecord, withNames } from './queries';
import { FOREIGN, googleTokenOwner, grantedGooglePurchase, type Recorded, recordGooglePurchase } from './record';
import { claimedPayload, verifyTransaction } from './storekit';

const statusWord = wordsOf(iapRecord.shape.status);

/** The app a call names (http/app-check.ts has refused a code no app has). */
async function appNamed(ctx: RequestContext, code: string): Promise<AppRecord> {
  const app = await ctx.apps.get(code);
  if (!app) throw fail.badInput(`未知的应用：${code}`);
  return app;
}

const recordList = pagedHandler('/api/iaprecord/fetch/page', {
  handler: async (input, ctx) => {
    const { page, size, exactTotal, sort: _sort, order, app, ...rest } = input;
    const filter = { ...rest, apps: appScope(ctx, app) };
    const unfiltered = Object.values(filter).every((v) => v === undefined);
    const direction = order === 'ascend' ? 'asc' : 'desc';
    const ids = filteredRecords(ctx.db, filter)
      .select('iap_records.id')
      .orderBy('iap_records.created_at', direction)
      .orderBy('iap_records.id', direction)
      .limit(size)
      .offset(page * size);
    const [rows, total] = await Promise.all([
      withNames(ctx.db)
        .where('iap_records.id', 'in', ids)
        .orderBy('iap_records.created_at', direction)
        .orderBy('iap_records.id', direction)
        .execute(),
      unfiltered ? keptTotal(ctx.db, 'iap_records') : countedTotal(ctx.db, filteredRecords(ctx.db, filter), exactTotal),
    ]);
    return pageAnswer(rows.map(presentRecord), total, page, size);
  },
});

export default defineRoutes({
  '/api/iaprecord/apple': {
    handler: async (input, ctx) => {
      // The app's own App Store settings: a transaction signed for another app's bundle is refused.
      const apple = ctx.apps.payments(await appNamed(ctx, input.app)).apple;
      // Verification is CPU work and needs no database: done before the transaction starts.
      const verified = apple ? await verifyTransaction(apple, input.signedTransaction) : null;
      return ctx.inTransaction(async (tx) => {
        const recorded = verified
          ? await recordAppleTransaction(tx.db, { userId: ctx.user.id, app: input.app, verified })
          : await recordUnverifiable(tx.db, { userId: ctx.user.id, app: input.app, jws: input.signedTransaction });
        const record = presentRecord(await loadRecord(tx.db, recorded.id));
        return { record, duplicate: recorded.duplicate };
      });
    },
  },

  '/api/iaprecord/google': {
    handler: async (input, ctx) => {
      const app = await appNamed(ctx, input.app);
      // Without the app's package there is nothing to ask Google about: kept pending, as when unconfigured.
      const play = app.androidPackage ? googlePlayFor(ctx.apps.payments(app).google) : null;
      const answer = (db: typeof ctx.db, recorded: Recorded) =>
        loadRecord(db, recorded.id).then((row) => ({ record: presentRecord(row), duplicate: recorded.duplicate }));
      const product = await findProduct(ctx.db, { app: input.app, platform: 'android', productId: input.productId });
      const purchase: PlayPurchase = {
        packageName: app.androidPackage,
        productId: input.productId,
        token: input.purchaseToken,
        kind: product?.type === 'subscription' ? 'subscription' : 'product',
        consumable: product?.type === 'consumable',
      };
      let verdict: PlayVerdict | null = null;
      const owner = await googleTokenOwner(ctx.db, input.purchaseToken);
      if (owner !== null && owner !== ctx.user.id) {
        // Another account's token: Google is not asked (the record is refused in the transaction).
        verdict = { ok: false, final: true, reason: FOREIGN, payload: null };
      } else if (play) {
        // A one-time purchase keeps its token: once granted, a repeat is answered from the record.
        const earlier =
          purchase.kind === 'product' ? await grantedGooglePurchase(ctx.db, input.purchaseToken, ctx.user.id) : null;
        if (earlier) return answer(ctx.db, earlier);
        // Google is asked before the transaction starts: a slow answer holds no database lock.
        verdict = !product
          ? { ok: false, final: true, reason: `未知的内购商品：${input.productId}`, payload: null }
          : product.enabled !== 1
            ? { ok: false, final: true, reason: `内购商品已停用：${input.productId}`, payload: null }
            : await play.verify(purchase);
      }
      const recorded = await ctx.inTransaction((tx) =>
        recordGooglePurchase(tx.db, { ...input, userId: ctx.user.id, verdict, product }),
      );
      if (play && verdict?.ok && verdict.needsAcknowledgement && !recorded.duplicate) {
        // Unacknowledged purchases are refunded by Google after three days; the grant stands either way.
        play.acknowledge(purchase).catch((error: unknown) => {
          ctx.log.warn({ err: error, productId: input.productId }, 'Google Play acknowledgement failed');
        });
      }
      return answer(ctx.db, recorded);
    },
  },

  '/api/iaprecord/apple/notify': {
    handler: async (input, ctx) => {
      // The bundle id it claims picks the app whose settings verify it (and so must match).
      const data = claimedPayload(input.signedPayload)?.data as { bundleId?: unknown } | undefined;
      const target = await appleAppFor(ctx.apps, data?.bundleId);
      // No app is configured: nothing can be verified, so nothing is kept.
      if (!target) return { status: 'rejected', reason: '服务器未配置 App Store 校验，通知未处理' };
      const { verified, signedTransaction } = await verifyNotificationParts(target.apple, input.signedPayload);
      if (!verified.ok) return keepRefused(ctx, verified);
      return ctx.inTransaction((tx) => applyNotification(tx.db, target.app.code, verified.decoded, signedTransaction));
    },
  },

  '/api/iaprecord/fetch/page': recordList,
  '/api/iaprecord/export': listExport(recordList, (ctx) => ({
    filename: '内购记录',
    columns: [
      { header: 'ID', width: 10, cell: (r) => r.id },
      { header: '时间', width: 18, cell: (r) => shanghaiTime(r.createdAt) },
      { header: '用户', width: 16, cell: (r) => r.userPhone ?? '' },
      { header: '应用', width: 12, cell: (r) => ctx.apps.nameOf(r.app) },
      { header: '平台', width: 10, cell: (r) => platformWord(r.platform) },
      { header: '商品', width: 24, cell: (r) => r.productName ?? r.productId },
      { header: '交易号', width: 28, cell: (r) => r.transactionId ?? '' },
      { header: '环境', width: 12, cell: (r) => r.environment ?? '' },
      { header: '状态', width: 10, cell: (r) => statusWord(r.status) },
      { header: '原因', width: 30, cell: (r) => r.reason ?? '' },
      { header: '会员天数', width: 10, cell: (r) => r.vipDays },
      { header: '金币', width: 8, cell: (r) => r.coins },
      { header: '购买时间', width: 18, cell: (r) => shanghaiTime(r.purchasedAt) },
      { header: '到期时间', width: 18, cell: (r) => shanghaiTime(r.expiresAt) },
      { header: '退款时间', width: 18, cell: (r) => shanghaiTime(r.refundedAt) },
    ],
  })),

  '/api/iaprecord/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadRecord(ctx.db, input.id);
      mustSee(ctx, row.app, '内购记录不存在');
      const transactionId = row.transaction_id ?? row.claimed_transaction_id;
      const notifications = transactionId
        ? await ctx.db
            .selectFrom('iap_notifications')
            .selectAll()
            .where('transaction_id', '=', transactionId)
            .orderBy('id')
            .limit(100)
            .execute()
        : [];
      return {
        record: presentRecord(row),
        payload: row.payload ? (JSON.parse(row.payload) as Record<string, unknown>) : null,
        notifications: notifications.map((n) => ({
          id: n.id,
          type: n.type,
          subtype: n.subtype,
          status: n.status,
          reason: n.reason,
          createdAt: iso(Number(n.created_at)),
        })),
      };
    },
  },

  '/api/iaprecord/fetch/config': {
    handler: async (input, ctx) => {
      const app = await appNamed(ctx, input.app);
      const { apple, google } = ctx.apps.payments(app);
      return {
        apple: apple !== null,
        appleEnvironments: apple?.environments ?? [],
        google: Boolean(google) && app.androidPackage !== '',
      };
    },
  },
});
