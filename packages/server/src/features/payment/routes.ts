import { paymentNotification } from '@appdesk/contract/endpoints/payment';
import type { AppRegistry } from '../../core/apps';
import { countedTotal, iso, keptTotal, pageAnswer, pageOf, shanghaiTime } from '../../db/paging';
import { appScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { listExport, pagedHandler, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';

const methodWord = wordsOf(paymentNotification.shape.method);
// The contract gives the codes no words: the page's own.
const statusWord = wordsOf([
  { value: 'applied', label: '已入账' },
  { value: 'duplicate', label: '重复通知' },
  { value: 'ignored', label: '已忽略' },
  { value: 'rejected', label: '已拒绝' },
]);

const notificationList = pagedHandler('/api/payment/fetch/page', {
  handler: async (input, ctx) => {
    // A scope leaves out the notifications that did not verify (no app is known for them).
    const apps = appScope(ctx, input.app);
    let filtered = ctx.db.selectFrom('payment_notifications');
    if (apps) filtered = filtered.where(inScope('payment_notifications.app', apps));
    if (input.orderNo) filtered = filtered.where('order_no', '=', input.orderNo);
    if (input.method) filtered = filtered.where('method', '=', input.method);
    if (input.status) filtered = filtered.where('status', '=', input.status);
    const unfiltered = !apps && !input.orderNo && !input.method && !input.status;
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
        app: r.app,
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
});

/** The list as a spreadsheet; an app is shown by its name. */
const notificationExport = (apps: AppRegistry) =>
  listExport(notificationList, {
    filename: '支付通知',
    columns: [
      { header: 'ID', width: 10, cell: (n) => n.id },
      { header: '时间', width: 18, cell: (n) => shanghaiTime(n.createdAt) },
      { header: '应用', width: 12, cell: (n) => (n.app ? apps.nameOf(n.app) : '') },
      { header: '支付方式', width: 12, cell: (n) => methodWord(n.method) },
      { header: '订单号', width: 26, cell: (n) => n.orderNo ?? '' },
      { header: '交易号', width: 30, cell: (n) => n.transactionId ?? '' },
      { header: '金额（分）', width: 10, cell: (n) => n.amount ?? '' },
      { header: '处理结果', width: 10, cell: (n) => statusWord(n.status) },
      { header: '原因', width: 30, cell: (n) => n.reason ?? '' },
    ],
  });

export default defineRoutes({
  '/api/payment/fetch/config': {
    handler: async (input, ctx) => {
      const app = await ctx.apps.get(input.app);
      // http/app-check.ts has refused a code no app has.
      if (!app) throw fail.badInput(`未知的应用：${input.app}`);
      const { alipay, wechat } = ctx.apps.payments(app);
      return { alipay: alipay !== null, wechat: wechat !== null };
    },
  },

  '/api/payment/fetch/page': notificationList,
  '/api/payment/export': {
    handler: async (input, ctx) => {
      // The apps' names for the cells, read before the rows stream.
      await ctx.apps.all();
      return notificationExport(ctx.apps).handler(input, ctx);
    },
  },
});
