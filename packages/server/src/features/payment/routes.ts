import { countedTotal, iso, keptTotal, pageAnswer, pageOf } from '../../db/paging';
import { defineRoutes } from '../../http/route';

export default defineRoutes({
  '/api/payment/fetch/config': {
    handler: async (_input, ctx) => ({
      alipay: ctx.config.payments.alipay !== null,
      wechat: ctx.config.payments.wechat !== null,
    }),
  },

  '/api/payment/fetch/page': {
    handler: async (input, ctx) => {
      let filtered = ctx.db.selectFrom('payment_notifications');
      if (input.orderNo) filtered = filtered.where('order_no', '=', input.orderNo);
      if (input.method) filtered = filtered.where('method', '=', input.method);
      if (input.status) filtered = filtered.where('status', '=', input.status);
      const unfiltered = !input.orderNo && !input.method && !input.status;
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      const { rows, ...total } = await pageOf(
        filtered.selectAll().orderBy('created_at', direction).orderBy('id', direction),
        unfiltered ? keptTotal(ctx.db, 'payment_notifications') : countedTotal(ctx.db, filtered, input.exactTotal),
        input.page,
        input.size,
      );
      return pageAnswer(
        rows.map((r) => ({
          id: r.id,
          method: r.method as 'alipay',
          orderNo: r.order_no,
          transactionId: r.transaction_id,
          amount: r.amount === null ? null : Number(r.amount),
          status: r.status as 'applied',
          reason: r.reason,
          createdAt: iso(Number(r.created_at)),
        })),
        total,
        input.page,
        input.size,
      );
    },
  },
});
