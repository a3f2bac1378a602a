import { changeCoins } from '../../core/ledger';
import { changeVip } from '../../core/vip';
import { countedTotal, pageAnswer, pageOf } from '../../db/paging';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import { loadItem, newRecordNo, presentItem, presentMine, refuseUnavailable } from './queries';

/** The app's side of the coin shop: what is on offer, redeeming, and one's own records. */
export default defineRoutes({
  '/api/exchange/fetch/list': {
    handler: async (_input, ctx) => {
      const now = Date.now();
      const rows = await ctx.db
        .selectFrom('exchange_items')
        .selectAll()
        .where('enabled', '=', 1)
        .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
        .orderBy('sort')
        .orderBy('id')
        .limit(200)
        .execute();
      return {
        list: rows.map((r) => {
          const { id, name, image, description, kind, value, costCoins, stock, perUserLimit, startsAt, endsAt } =
            presentItem(r);
          return { id, name, image, description, kind, value, costCoins, stock, perUserLimit, startsAt, endsAt };
        }),
      };
    },
  },

  '/api/exchange/make': {
    transaction: true,
    message: '兑换成功',
    handler: async (input, ctx) => {
      const now = Date.now();
      const item = await loadItem(ctx.db, input.itemId);
      refuseUnavailable(item, now);
      const physical = item.kind === 'physical';
      if (physical && !(input.receiverName && input.receiverPhone && input.address)) {
        throw fail.badInput('实物商品请填写收货人、收货手机号和收货地址');
      }
      const recordNo = newRecordNo(now);
      const cost = Number(item.cost_coins);
      // Coins first: the ledger's conditional UPDATE locks the user's row, so one user's
      // concurrent redemptions queue here, and the limit below counts the ones before it.
      const debit = await changeCoins(ctx.db, {
        userId: ctx.user.id,
        delta: -cost,
        reason: 'exchange',
        refType: 'exchange',
        refId: recordNo,
        note: `兑换“${item.name}”`,
      });
      if (item.per_user_limit > 0) {
        const taken = await ctx.db
          .selectFrom('exchange_records')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', ctx.user.id)
          .where('item_id', '=', item.id)
          .where('status', '<>', 'cancelled')
          .executeTakeFirstOrThrow();
        if (Number(taken.n) >= item.per_user_limit) {
          throw fail.conflict(`该商品每人限兑 ${item.per_user_limit} 次，您已兑换过`);
        }
      }
      // Finite stock only: an unlimited item's row is never written, so it is no hot spot.
      if (item.stock !== null) {
        const left = await ctx.db
          .updateTable('exchange_items')
          .set((eb) => ({ stock: eb('stock', '-', 1) }))
          .where('id', '=', item.id)
          .where('stock', '>', 0)
          .returning('stock')
          .executeTakeFirst();
        if (!left) throw fail.conflict(item.kind === 'code' ? '兑换码已发完，请选择其他商品' : '库存不足，已兑完');
      }
      let code: { id: number; code: string } | undefined;
      if (item.kind === 'code') {
        let free = ctx.db
          .selectFrom('exchange_codes')
          .select(['id', 'code'])
          .where('item_id', '=', item.id)
          .where('record_id', 'is', null)
          .orderBy('id')
          .limit(1);
        // Concurrent redemptions on PostgreSQL each take a different free code.
        if (ctx.dialect === 'postgres') free = free.forUpdate().skipLocked();
        code = await free.executeTakeFirst();
        if (!code) throw fail.conflict('兑换码已发完，请选择其他商品');
      }
      const { id } = await ctx.db
        .insertInto('exchange_records')
        .values({
          record_no: recordNo,
          user_id: ctx.user.id,
          item_id: item.id,
          item_name: item.name,
          kind: item.kind,
          value: Number(item.value),
          cost,
          status: physical ? 'waiting' : 'done',
          code: code?.code ?? null,
          receiver_name: physical ? (input.receiverName ?? null) : null,
          receiver_phone: physical ? (input.receiverPhone ?? null) : null,
          address: physical ? (input.address ?? null) : null,
          carrier: null,
          tracking_no: null,
          note: null,
          operator_id: null,
          created_at: now,
          updated_at: now,
          shipped_at: null,
          cancelled_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (code) {
        const taken = await ctx.db
          .updateTable('exchange_codes')
          .set({ record_id: id, used_at: now })
          .where('id', '=', code.id)
          .where('record_id', 'is', null)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) throw fail.conflict('兑换人数较多，请重试');
      }
      let coins = debit.balance;
      if (item.kind === 'vip_days') {
        await changeVip(ctx.db, {
          userId: ctx.user.id,
          days: Number(item.value),
          reason: 'exchange',
          refType: 'exchange',
          refId: recordNo,
        });
      } else if (item.kind === 'coins') {
        const granted = await changeCoins(ctx.db, {
          userId: ctx.user.id,
          delta: Number(item.value),
          reason: 'exchange',
          refType: 'exchange.grant',
          refId: recordNo,
          note: `兑换“${item.name}”获得`,
        });
        coins = granted.balance;
      }
      const record = await ctx.db
        .selectFrom('exchange_records')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { record: presentMine(record), coins };
    },
  },

  '/api/exchange/fetch/mine': {
    handler: async (input, ctx) => {
      const mine = ctx.db.selectFrom('exchange_records').where('user_id', '=', ctx.user.id);
      const { rows, ...total } = await pageOf(
        mine.selectAll().orderBy('id', 'desc'),
        countedTotal(ctx.db, mine),
        input.page,
        input.size,
      );
      return pageAnswer(rows.map(presentMine), total, input.page, input.size);
    },
  },
});
