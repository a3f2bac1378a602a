import { type CoinReason, coinReasons } from '@appdesk/contract/constants';
import type { CoinRecord, coinFilter } from '@appdesk/contract/endpoints/coin';
import { labelOf } from '@appdesk/contract/rules';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { iso, pageAnswer, pageOf, rangeMs, shanghaiTime } from '../../db/paging';
import type { CoinRecordsTable } from '../../db/schema';
import { exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';

type CoinFilter = z.output<typeof coinFilter>;

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

/** What the list and export select: a ledger row and its user's phone. */
type RecordRow = Selectable<CoinRecordsTable> & { phone: string };

/** A ledger row as the page shows it and the export writes it. */
function presentRecord(r: RecordRow): CoinRecord {
  return {
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
  };
}

export default defineRoutes({
  '/api/coin/fetch/page': {
    handler: async (input, ctx) => {
      const base = filteredRecords(ctx.db, input);
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      // The ledger is append-only, so id order is time order.
      let sorted = base.select(recordColumns);
      if (input.sort === 'delta') sorted = sorted.orderBy('coin_records.delta', direction);
      const { rows, total } = await pageOf(sorted.orderBy('coin_records.id', direction), base, input.page, input.size);
      return pageAnswer(rows.map(presentRecord), total, input.page, input.size);
    },
  },

  '/api/coin/export': {
    handler: async (input, ctx) =>
      exportTable({
        filename: '金币流水',
        columns: [
          { header: '流水 ID', width: 10, cell: (r) => r.id },
          { header: '用户 ID', width: 10, cell: (r) => r.userId },
          { header: '手机号', width: 16, cell: (r) => r.userPhone },
          { header: '变动', width: 10, cell: (r) => r.delta },
          { header: '变动后余额', width: 12, cell: (r) => r.balanceAfter },
          { header: '原因', width: 12, cell: (r) => labelOf(coinReasons, r.reason) },
          { header: '备注', width: 30, cell: (r) => r.note ?? '' },
          { header: '时间', width: 20, cell: (r) => shanghaiTime(r.createdAt) },
        ],
        rows: exportRows(
          (after, limit) =>
            filteredRecords(ctx.db, input)
              .select(recordColumns)
              .where('coin_records.id', '>', after)
              .orderBy('coin_records.id')
              .limit(limit)
              .execute(),
          presentRecord,
        ),
      }),
  },
});
