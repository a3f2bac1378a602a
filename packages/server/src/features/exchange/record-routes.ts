import { exchangeKinds, exchangeStatuses } from '@appdesk/contract/constants';
import type { recordFilter } from '@appdesk/contract/endpoints/exchangerecord';
import { maskPhone } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import { type ExpressionBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { changeCoins } from '../../core/ledger';
import { sendMessage } from '../../core/messages';
import { lockMoney } from '../../core/money-lock';
import { countedTotal, pageAnswer, rangeMs, shanghaiTime } from '../../db/paging';
import { type AppScope, inScope, mustReach, mustSee, scoped } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { directionOf, exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';
import { loadItem, loadRecord, presentRecord, recordStatusLabel, recordsWithUsers } from './queries';
import { redeem } from './redeem';

type Filter = z.output<typeof recordFilter>;

/** The records a filter keeps, as a condition on `exchange_records`. */
function conditions(filter: Filter & { apps: AppScope }) {
  const { from, to } = rangeMs(filter);
  const column = (name: string) => sql.ref(`exchange_records.${name}`);
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      ...(filter.apps ? [inScope('exchange_records.app', filter.apps)(eb)] : []),
      ...(filter.itemId ? [eb(column('item_id'), '=', filter.itemId)] : []),
      ...(filter.kind ? [eb(column('kind'), '=', filter.kind)] : []),
      ...(filter.status ? [eb(column('status'), '=', filter.status)] : []),
      ...(from !== undefined ? [eb(column('created_at'), '>=', from)] : []),
      ...(to !== undefined ? [eb(column('created_at'), '<=', to)] : []),
      ...(filter.phone ? [eb(column('user_id'), 'in', sql`(select id from users where phone = ${filter.phone})`)] : []),
    ]);
}

/** 兑换记录: the warehouse's list, shipping, cancelling with refunds, compensation and the export. */
export default defineRoutes({
  '/api/exchange/record/make': {
    transaction: true,
    message: '已补发',
    handler: async (input, ctx) => {
      // A redemption is of the item's app.
      await mustReach(ctx, (await loadItem(ctx.db, input.itemId)).app);
      const { id } = await redeem(ctx.db, ctx.dialect, { ...input, operatorId: ctx.user.id });
      const record = presentRecord(await loadRecord(ctx.db, id));
      await sendMessage(ctx.db, {
        app: record.app,
        userId: input.userId,
        title: '您获得了一件兑换商品',
        content: `运营人员为您补发了“${record.itemName}”${record.status === 'waiting' ? '，我们会尽快为您发货' : '，已发放到您的账户'}。`,
        authorId: null,
      });
      await ctx.audit({ targetId: id, after: record });
      return { record };
    },
  },

  '/api/exchange/record/fetch/page': {
    handler: async (input, ctx) => {
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      const column = input.sort === 'cost' ? 'exchange_records.cost' : 'exchange_records.created_at';
      const filtered = ctx.db.selectFrom('exchange_records').where(conditions(scoped(ctx, input)));
      const pageIds = filtered
        .select('exchange_records.id')
        .orderBy(column, direction)
        .orderBy('exchange_records.id', direction)
        .limit(input.size)
        .offset(input.page * input.size);
      const [rows, total] = await Promise.all([
        recordsWithUsers(ctx.db)
          .where('exchange_records.id', 'in', pageIds)
          .orderBy(column, direction)
          .orderBy('exchange_records.id', direction)
          .execute(),
        countedTotal(ctx.db, filtered, input.exactTotal),
      ]);
      return pageAnswer(
        rows.map((row) => presentRecord(row)),
        total,
        input.page,
        input.size,
      );
    },
  },

  '/api/exchange/record/ship': {
    transaction: true,
    message: '已发货，用户会收到发货通知',
    handler: async (input, ctx) => {
      const before = await loadRecord(ctx.db, input.id);
      await mustReach(ctx, before.app);
      const now = Date.now();
      const shipped = await ctx.db
        .updateTable('exchange_records')
        .set({ status: 'shipped', carrier: input.carrier, tracking_no: input.trackingNo, updated_at: now })
        .set((eb) => ({ shipped_at: eb.fn.coalesce('shipped_at', sql<number>`${now}`) }))
        .where('id', '=', input.id)
        .where('status', 'in', ['waiting', 'shipped'])
        .returning('id')
        .executeTakeFirst();
      if (!shipped) throw fail.conflict(`该兑换${recordStatusLabel[before.status] ?? before.status}，不能发货`);
      const record = presentRecord(await loadRecord(ctx.db, input.id));
      await sendMessage(ctx.db, {
        app: record.app,
        userId: record.userId,
        title: before.status === 'shipped' ? '兑换商品的快递单号已更新' : '您兑换的商品已发货',
        content: `您兑换的“${record.itemName}”已由${input.carrier}发出，快递单号 ${input.trackingNo}，请注意查收。`,
        authorId: null,
      });
      await ctx.audit({
        targetId: input.id,
        before: { status: before.status, carrier: before.carrier, trackingNo: before.tracking_no },
        after: { status: 'shipped', carrier: input.carrier, trackingNo: input.trackingNo },
      });
      return { record };
    },
  },

  '/api/exchange/record/fetch/phone': {
    transaction: true,
    handler: async (input, ctx) => {
      const record = await loadRecord(ctx.db, input.id);
      mustSee(ctx, record.app, '兑换记录不存在');
      if (!record.receiver_phone) throw fail.conflict('该兑换不是实物商品，没有收货手机号');
      await ctx.audit({ targetId: input.id, after: { receiverPhone: maskPhone(record.receiver_phone) } });
      return { receiverPhone: record.receiver_phone };
    },
  },

  '/api/exchange/record/cancel': {
    transaction: true,
    message: '已取消兑换，金币和库存已退回',
    handler: async (input, ctx) => {
      const before = await loadRecord(ctx.db, input.id);
      await mustReach(ctx, before.app);
      await lockMoney(ctx.db, before.user_id);
      const now = Date.now();
      const cancelled = await ctx.db
        .updateTable('exchange_records')
        .set({ status: 'cancelled', note: input.note, cancelled_at: now, operator_id: ctx.user.id, updated_at: now })
        .where('id', '=', input.id)
        .where('status', 'in', ['waiting', 'shipped'])
        .returning(['id', 'app', 'user_id', 'item_id', 'cost', 'record_no', 'item_name'])
        .executeTakeFirst();
      if (!cancelled) {
        throw fail.conflict(
          `该兑换${recordStatusLabel[before.status] ?? before.status}，只有待发货或退回的实物兑换可以取消`,
        );
      }
      const cost = Number(cancelled.cost);
      if (cost > 0) {
        await changeCoins(ctx.db, {
          userId: cancelled.user_id,
          delta: cost,
          reason: 'exchange',
          refType: 'exchange.cancel',
          refId: cancelled.record_no,
          operatorId: ctx.user.id,
          note: `取消兑换“${cancelled.item_name}”退还`,
        });
      }
      await ctx.db
        .updateTable('exchange_items')
        .set((eb) => ({ stock: eb('stock', '+', 1) }))
        .where('id', '=', cancelled.item_id)
        .where('stock', 'is not', null)
        .execute();
      await sendMessage(ctx.db, {
        app: cancelled.app,
        userId: cancelled.user_id,
        title: '您的兑换已取消',
        content: `您兑换的“${cancelled.item_name}”已取消${cost > 0 ? `，${cost} 金币已退回您的账户` : ''}。原因：${input.note}`,
        authorId: null,
      });
      await ctx.audit({
        targetId: input.id,
        before: { status: before.status },
        after: { status: 'cancelled', note: input.note, refunded: cost },
      });
      return { record: presentRecord(await loadRecord(ctx.db, input.id)) };
    },
  },

  '/api/exchange/record/export': {
    handler: async (input, ctx) => {
      await ctx.apps.all();
      return exportTable({
        filename: '兑换记录',
        // The warehouse ships from this file: the receiver's whole phone is in it, and its log row says so.
        personalData: '收货人完整手机号',
        columns: [
          { header: '兑换单号', width: 22, cell: (r) => r.recordNo },
          { header: '应用', width: 12, cell: (r) => ctx.apps.nameOf(r.app) },
          { header: '用户 ID', width: 10, cell: (r) => r.userId },
          { header: '用户手机号', width: 16, cell: (r) => r.userPhone },
          { header: '商品', width: 20, cell: (r) => r.itemName },
          { header: '类型', width: 10, cell: (r) => labelOf(exchangeKinds, r.kind) },
          { header: '金币', width: 10, cell: (r) => r.cost },
          { header: '状态', width: 10, cell: (r) => labelOf(exchangeStatuses, r.status) },
          { header: '收货人', width: 12, cell: (r) => r.receiverName ?? '' },
          { header: '收货手机号', width: 16, cell: (r) => r.receiverPhone ?? '' },
          { header: '收货地址', width: 40, cell: (r) => r.address ?? '' },
          { header: '快递公司', width: 12, cell: (r) => r.carrier ?? '' },
          { header: '快递单号', width: 20, cell: (r) => r.trackingNo ?? '' },
          { header: '兑换时间', width: 20, cell: (r) => shanghaiTime(r.createdAt) },
          { header: '发货时间', width: 20, cell: (r) => shanghaiTime(r.shippedAt) },
        ],
        rows: exportRows(
          {
            id: 'exchange_records.id',
            column: input.sort === 'cost' ? 'exchange_records.cost' : 'exchange_records.created_at',
            direction: directionOf(input.order),
          },
          (batch) => batch(recordsWithUsers(ctx.db).where(conditions(scoped(ctx, input)))).execute(),
          (row) => [input.sort === 'cost' ? row.cost : row.created_at, row.id],
          (row) => presentRecord(row, { receiverPhone: 'whole' }),
        ),
      });
    },
  },
});
