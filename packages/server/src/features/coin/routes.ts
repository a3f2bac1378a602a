import { type CoinReason, coinReasons } from '@appdesk/contract/constants';
import type { coinFilter } from '@appdesk/contract/endpoints/coin';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { iso, pageAnswer, pageOf, rangeMs, shanghaiTime } from '../../db/paging';
import { exportRows } from '../../http/export';
import { defineRoutes } from '../../http/route';

type CoinFilter = z.output<typeof coinFilter>;
const reasonText = new Map<string, string>(coinReasons.map((r) => [r.value, r.label]));

function filteredRecords(db: Db, filter: CoinFilter) {
  const { from, to } = rangeMs(filter);
  let query = db.selectFrom('coin_records').innerJoin('users', 'users.id', 'coin_records.user_id');
  if (filter.userId !== undefined) query = query.where('coin_records.user_id', '=', filter.userId);
  if (filter.reason !== undefined) query = query.where('coin_records.reason', '=', filter.reason);
  if (from !== undefined) query = query.where('coin_records.created_at', '>=', from);
  if (to !== undefined) query = query.where('coin_records.created_at', '<=', to);
  return query;
}

const recordColumns = [
  'coin_records.id',
  'coin_records.user_id',
  'users.phone',
  'coin_records.delta',
  'coin_records.balance_after',
  'coin_records.reason',
  'coin_records.ref_type',
  'coin_records.ref_id',
  'coin_records.operator_id',
  'coin_records.note',
  'coin_records.created_at',
] as const;

export default defineRoutes({
  '/api/coin/fetch/page': {
    handler: async (input, ctx) => {
      const base = filteredRecords(ctx.db, input);
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      // The ledger is append-only, so id order is time order.
      let sorted = base.select(recordColumns);
      if (input.sort === 'delta') sorted = sorted.orderBy('coin_records.delta', direction);
      const { rows, total } = await pageOf(sorted.orderBy('coin_records.id', direction), base, input.page, input.size);
      const list = rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        userPhone: r.phone,
        delta: r.delta,
        balanceAfter: r.balance_after,
        reason: r.reason as CoinReason,
        refType: r.ref_type,
        refId: r.ref_id,
        operatorId: r.operator_id,
        note: r.note,
        createdAt: iso(r.created_at),
      }));
      return pageAnswer(list, total, input.page, input.size);
    },
  },

  '/api/coin/export': {
    handler: async (input, ctx) => ({
      filename: '金币流水',
      columns: [
        { header: '流水 ID', key: 'id', width: 10 },
        { header: '用户 ID', key: 'userId', width: 10 },
        { header: '手机号', key: 'phone', width: 16 },
        { header: '变动', key: 'delta', width: 10 },
        { header: '变动后余额', key: 'balance', width: 12 },
        { header: '原因', key: 'reason', width: 12 },
        { header: '备注', key: 'note', width: 30 },
        { header: '时间', key: 'time', width: 20 },
      ],
      rows: exportRows(
        (after, limit) =>
          filteredRecords(ctx.db, input)
            .select(recordColumns)
            .where('coin_records.id', '>', after)
            .orderBy('coin_records.id')
            .limit(limit)
            .execute(),
        (r) => ({
          id: r.id,
          userId: r.user_id,
          phone: r.phone,
          delta: r.delta,
          balance: r.balance_after,
          reason: reasonText.get(r.reason) ?? r.reason,
          note: r.note ?? '',
          time: shanghaiTime(r.created_at),
        }),
      ),
    }),
  },
});
