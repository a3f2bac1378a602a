import { countedTotal, pageAnswer, pageOf } from '../../db/paging';
import { defineRoutes } from '../../http/route';
import { presentItem, presentMine } from './queries';
import { redeem } from './redeem';

/** The app's side of the coin shop: what is on offer, redeeming, and one's own records. */
export default defineRoutes({
  '/api/exchange/fetch/list': {
    handler: async (input, ctx) => {
      const now = Date.now();
      const rows = await ctx.db
        .selectFrom('exchange_items')
        .selectAll()
        .where('app', '=', input.app)
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
    transaction: 'short',
    message: '兑换成功',
    handler: async (input, ctx) => {
      const { id, coins } = await redeem(ctx.db, ctx.dialect, { userId: ctx.user.id, ...input });
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
      const mine = ctx.db
        .selectFrom('exchange_records')
        .where('user_id', '=', ctx.user.id)
        .where('app', '=', input.app);
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
