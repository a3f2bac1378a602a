import { channels, ORDER_PAY_WINDOW_MS, orderStatuses, payMethods } from '@appdesk/contract/constants';
import { fenToYuan, maskPhone } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import { sql } from 'kysely';
import { lockMoney } from '../../core/money-lock';
import { countedTotal, iso, keptTotal, pageAnswer, shanghaiTime } from '../../db/paging';
import { mustReach, mustSee, scoped } from '../../http/app-scope';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { directionOf, exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';
import { findPlan } from '../plan/public';
import { addOrderEvent as addEvent, payOrder, takeBackOrder } from './public';
import {
  closeExpired,
  filteredOrders,
  keptName,
  loadOrder,
  newOrderNo,
  orderConditions,
  presentOrder,
  statusLabel,
  withUsers,
} from './queries';

/** Who did a step: an operator by nickname, else role and masked phone. */
function operatorName(id: number, isAdmin: number | null, nickname: string | null, phone: string | null) {
  if (nickname) return nickname;
  return `${isAdmin === 1 ? '管理员' : '用户'} ${phone ? maskPhone(phone) : `#${id}`}`;
}

/** The order an operator changes, once it is known to be in their scope. */
async function reachedOrder(ctx: SignedInContext, id: number) {
  const order = await loadOrder(ctx.db, { id });
  await mustReach(ctx, order.app);
  return order;
}

/** Refuses a change to an order that is not in `wanted`, saying what state it is in. */
async function refuseUnless(ctx: SignedInContext, id: number, wanted: string, action: string): Promise<never> {
  const order = await loadOrder(ctx.db, { id });
  if (order.status === wanted) throw fail.conflict('订单状态已变化，请刷新后重试');
  throw fail.conflict(`订单${statusLabel[order.status] ?? order.status}，不能${action}`);
}

export default defineRoutes({
  '/api/order/make': {
    transaction: true,
    message: '订单已创建，请在 30 分钟内完成支付',
    handler: async (input, ctx) => {
      const plan = await findPlan(ctx.db, input.planId);
      // An app names itself: another app's plan is not one it sells.
      if (!plan || (input.app !== undefined && plan.app !== input.app)) throw fail.notFound('会员套餐不存在');
      if (plan.on_sale !== 1) throw fail.conflict('该套餐已下架，请选择其他套餐');
      const now = Date.now();
      // Six random digits per second collide now and then at a thousand orders a second: draw again.
      let made: { id: number } | undefined;
      for (let attempt = 0; !made; attempt += 1) {
        if (attempt === 5) throw new Error('no free order number after 5 draws');
        made = await ctx.db
          .insertInto('orders')
          .values({
            order_no: newOrderNo(now),
            user_id: ctx.user.id,
            plan_id: plan.id,
            plan_name: plan.name,
            app: plan.app,
            channel: input.channel,
            pay_method: input.payMethod,
            // Copied now: a later price change never alters this order.
            amount: Number(plan.price),
            duration_days: plan.duration_days,
            bonus_coins: Number(plan.bonus_coins),
            status: 'pending',
            transaction_id: null,
            created_at: now,
            expires_at: now + ORDER_PAY_WINDOW_MS,
            paid_at: null,
            updated_at: now,
          })
          .onConflict((oc) => oc.column('order_no').doNothing())
          .returning('id')
          .executeTakeFirst();
      }
      const { id } = made;
      await addEvent(ctx.db, {
        orderId: id,
        kind: 'created',
        operatorId: ctx.user.id,
        detail: { amount: Number(plan.price), payMethod: input.payMethod, channel: input.channel },
      });
      return { order: presentOrder(await loadOrder(ctx.db, { id })) };
    },
  },

  '/api/order/fetch/mine': {
    handler: async (input, ctx) => {
      const row = await loadOrder(ctx.db, { orderNo: input.orderNo, userId: ctx.user.id });
      await closeExpired(ctx.db, row.id);
      return { order: presentOrder(await loadOrder(ctx.db, { id: row.id })) };
    },
  },

  '/api/order/fetch/page': {
    handler: async (unscoped, ctx) => {
      const input = scoped(ctx, unscoped);
      await closeExpired(ctx.db);
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      const column = input.sort === 'amount' ? 'orders.amount' : 'orders.created_at';
      const kept = keptName(input);
      const counting = kept
        ? keptTotal(ctx.db, kept)
        : countedTotal(ctx.db, filteredOrders(ctx.db, input), input.exactTotal);
      // Ids first from the indexes, then only the page's rows meet their users.
      const pageIds = filteredOrders(ctx.db, input)
        .select('orders.id')
        .orderBy(column, direction)
        .orderBy('orders.id', direction)
        .limit(input.size)
        .offset(input.page * input.size);
      const rows = withUsers(ctx.db)
        .where('orders.id', 'in', pageIds)
        .orderBy(column, direction)
        .orderBy('orders.id', direction)
        .execute();
      const [list, total] = await Promise.all([rows, counting]);
      return pageAnswer(list.map(presentOrder), total, input.page, input.size);
    },
  },

  '/api/order/fetch/totals': {
    handler: async (unscoped, ctx) => {
      const input = scoped(ctx, unscoped);
      await closeExpired(ctx.db);
      const sum = (status?: string) =>
        status
          ? sql<string>`coalesce(sum(case when orders.status = ${status} then orders.amount else 0 end), 0)`
          : sql<string>`coalesce(sum(orders.amount), 0)`;
      const count = (status: string) =>
        sql<string>`coalesce(sum(case when orders.status = ${status} then 1 else 0 end), 0)`;
      const row = await filteredOrders(ctx.db, input)
        .select((eb) => [
          eb.fn.countAll<string>().as('count'),
          sum().as('amount'),
          count('paid').as('paid_count'),
          sum('paid').as('paid_amount'),
          count('refunded').as('refunded_count'),
          sum('refunded').as('refunded_amount'),
        ])
        .executeTakeFirstOrThrow();
      return {
        count: Number(row.count),
        amount: Number(row.amount),
        paidCount: Number(row.paid_count),
        paidAmount: Number(row.paid_amount),
        refundedCount: Number(row.refunded_count),
        refundedAmount: Number(row.refunded_amount),
      };
    },
  },

  '/api/order/fetch/detail': {
    handler: async (input, ctx) => {
      await closeExpired(ctx.db, input.id);
      const row = await loadOrder(ctx.db, { id: input.id });
      mustSee(ctx, row.app, '订单不存在');
      const order = presentOrder(row);
      const events = await ctx.db
        .selectFrom('order_events')
        .leftJoin('users', 'users.id', 'order_events.operator_id')
        .selectAll('order_events')
        .select(['users.nickname', 'users.phone', 'users.is_admin'])
        .where('order_events.order_id', '=', input.id)
        .orderBy('order_events.id')
        .execute();
      return {
        order,
        events: events.map((e) => ({
          id: e.id,
          kind: e.kind as 'created',
          operatorId: e.operator_id,
          operatorName: e.operator_id === null ? null : operatorName(e.operator_id, e.is_admin, e.nickname, e.phone),
          note: e.note,
          detail: e.detail ? (JSON.parse(e.detail) as Record<string, unknown>) : null,
          createdAt: iso(Number(e.created_at)),
        })),
      };
    },
  },

  '/api/order/pay': {
    transaction: true,
    message: '已确认收款，会员时长和赠送金币已发放',
    handler: async (input, ctx) => {
      // The buyer's row and the money counters first (core/money-lock.ts), then the order's.
      await lockMoney(ctx.db, (await reachedOrder(ctx, input.id)).user_id);
      await closeExpired(ctx.db, input.id);
      const transactionId = input.transactionId || null;
      const paid = await payOrder(ctx.db, {
        orderId: input.id,
        method: 'manual',
        transactionId,
        operatorId: ctx.user.id,
        note: input.note,
      });
      if (!paid) return refuseUnless(ctx, input.id, 'pending', '确认收款（权益不会重复发放）');
      await ctx.audit({
        targetId: input.id,
        before: { status: paid.previousStatus },
        after: { status: 'paid', note: input.note, transactionId },
      });
      return { order: presentOrder(await loadOrder(ctx.db, { id: input.id })) };
    },
  },

  '/api/order/cancel': {
    transaction: true,
    message: '订单已取消',
    handler: async (input, ctx) => {
      await lockMoney(ctx.db, (await reachedOrder(ctx, input.id)).user_id);
      await closeExpired(ctx.db, input.id);
      const cancelled = await ctx.db
        .updateTable('orders')
        .set({ status: 'cancelled', updated_at: Date.now() })
        .where('id', '=', input.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!cancelled) return refuseUnless(ctx, input.id, 'pending', '取消');
      await addEvent(ctx.db, { orderId: input.id, kind: 'cancelled', operatorId: ctx.user.id, note: input.note });
      await ctx.audit({
        targetId: input.id,
        before: { status: 'pending' },
        after: { status: 'cancelled', note: input.note },
      });
      return { order: presentOrder(await loadOrder(ctx.db, { id: input.id })) };
    },
  },

  '/api/order/refund': {
    transaction: true,
    message: '已退款',
    handler: async (input, ctx) => {
      await lockMoney(ctx.db, (await reachedOrder(ctx, input.id)).user_id);
      const refunded = await ctx.db
        .updateTable('orders')
        .set({ status: 'refunded', updated_at: Date.now() })
        .where('id', '=', input.id)
        .where('status', '=', 'paid')
        .returning(['id', 'order_no', 'user_id', 'app', 'duration_days', 'bonus_coins', 'amount'])
        .executeTakeFirst();
      if (!refunded) return refuseUnless(ctx, input.id, 'paid', '退款（只有已支付的订单可以退款）');
      const outcome = await takeBackOrder(ctx.db, refunded, ctx.user.id, input.note);
      await addEvent(ctx.db, {
        orderId: refunded.id,
        kind: 'refunded',
        operatorId: ctx.user.id,
        note: input.note,
        detail: { amount: Number(refunded.amount), ...outcome },
      });
      await ctx.audit({
        targetId: refunded.id,
        before: { status: 'paid' },
        after: { status: 'refunded', note: input.note, ...outcome },
      });
      return { order: presentOrder(await loadOrder(ctx.db, { id: refunded.id })), outcome };
    },
  },

  '/api/order/export': {
    handler: async (input, ctx) => {
      await closeExpired(ctx.db);
      // The apps' names for the cells, read before the rows stream.
      await ctx.apps.all();
      return exportTable({
        filename: '订单',
        columns: [
          { header: '订单号', width: 24, cell: (o) => o.orderNo },
          { header: '用户 ID', width: 10, cell: (o) => o.userId },
          { header: '手机号', width: 16, cell: (o) => o.userPhone },
          { header: '套餐', width: 16, cell: (o) => o.planName },
          { header: '应用', width: 12, cell: (o) => ctx.apps.nameOf(o.app) },
          { header: '渠道', width: 14, cell: (o) => labelOf(channels, o.channel) },
          { header: '支付方式', width: 12, cell: (o) => labelOf(payMethods, o.payMethod) },
          { header: '金额（元）', width: 12, cell: (o) => fenToYuan(o.amount) },
          { header: '金额（分）', width: 12, cell: (o) => o.amount },
          { header: '状态', width: 10, cell: (o) => labelOf(orderStatuses, o.status) },
          { header: '交易流水号', width: 32, cell: (o) => o.transactionId ?? '' },
          { header: '下单时间', width: 20, cell: (o) => shanghaiTime(o.createdAt) },
          { header: '支付时间', width: 20, cell: (o) => shanghaiTime(o.paidAt) },
        ],
        rows: exportRows(
          {
            id: 'orders.id',
            column: input.sort === 'amount' ? 'orders.amount' : 'orders.created_at',
            direction: directionOf(input.order),
          },
          (batch) => batch(withUsers(ctx.db).where(orderConditions(scoped(ctx, input)))).execute(),
          (row) => [input.sort === 'amount' ? row.amount : row.created_at, row.id],
          presentOrder,
        ),
      });
    },
  },
});
