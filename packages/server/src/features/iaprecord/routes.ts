import { countedTotal, iso, keptTotal, pageAnswer } from '../../db/paging';
import { defineRoutes } from '../../http/route';
import { applyNotification, verifyNotificationParts } from './notifications';
import { filteredRecords, loadRecord, presentRecord, withNames } from './queries';
import { recordAppleTransaction, recordGooglePurchase, recordUnverifiable } from './record';
import { verifyTransaction } from './storekit';

export default defineRoutes({
  '/api/iaprecord/apple': {
    handler: async (input, ctx) => {
      const apple = ctx.config.payments.apple;
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
    transaction: true,
    handler: async (input, ctx) => {
      const recorded = await recordGooglePurchase(ctx.db, { ...input, userId: ctx.user.id });
      return { record: presentRecord(await loadRecord(ctx.db, recorded.id)), duplicate: recorded.duplicate };
    },
  },

  '/api/iaprecord/apple/notify': {
    handler: async (input, ctx) => {
      const apple = ctx.config.payments.apple;
      if (!apple) return { status: 'rejected', reason: '服务器未配置 App Store 验证' };
      const parts = await verifyNotificationParts(apple, input.signedPayload);
      return ctx.inTransaction((tx) => applyNotification(tx.db, parts.verified, parts.signedTransaction));
    },
  },

  '/api/iaprecord/fetch/page': {
    handler: async (input, ctx) => {
      const { page, size, exactTotal, sort: _sort, order, ...filter } = input;
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
        unfiltered
          ? keptTotal(ctx.db, 'iap_records')
          : countedTotal(ctx.db, filteredRecords(ctx.db, filter), exactTotal),
      ]);
      return pageAnswer(rows.map(presentRecord), total, page, size);
    },
  },

  '/api/iaprecord/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadRecord(ctx.db, input.id);
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
    handler: async (_input, ctx) => ({
      apple: ctx.config.payments.apple !== null,
      appleEnvironments: ctx.config.payments.apple?.environments ?? [],
      google: false,
    }),
  },
});
