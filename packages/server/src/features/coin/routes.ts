import { type CoinReason, coinReasons } from '@appdesk/contract/constants';
import type { CoinRecord, coinFilter } from '@appdesk/contract/endpoints/coin';
import { maskPhone } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import { listPage } from '../../db/anchors';
import type { Db } from '../../db/index';
import { countedTotal, iso, pageAnswer, rangeMs, shanghaiTime } from '../../db/paging';
import type { CoinRecordsTable } from '../../db/schema';
import { directionOf, exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';

type CoinFilter = z.output<typeof coinFilter>;

/** The ledger rows a filter keeps, as a condition on `coin_records` for any query that has it. */
function recordFilter(filter: CoinFilter) {
  const { from, to } = rangeMs(filter);
  const column = (name: string) => sql.ref(`coin_records.${name}`);
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      ...(filter.userId !== undefined ? [eb(column('user_id'), '=', filter.userId)] : []),
      ...(filter.reason !== undefined ? [eb(column('reason'), '=', filter.reason)] : []),
      ...(filter.direction === 'in' ? [eb(column('delta'), '>', 0)] : []),
      ...(filter.direction === 'out' ? [eb(column('delta'), '<', 0)] : []),
      ...(from !== undefined ? [eb(column('created_at'), '>=', from)] : []),
      ...(to !== undefined ? [eb(column('created_at'), '<=', to)] : []),
    ]);
}

/** The filtered ledger alone: page ids and counts come from its indexes without touching users. */
const filteredRecords = (db: Db, filter: CoinFilter) => db.selectFrom('coin_records').where(recordFilter(filter));

const isFiltered = (filter: CoinFilter) =>
  filter.userId !== undefined ||
  filter.reason !== undefined ||
  filter.direction !== undefined ||
  filter.from !== undefined ||
  filter.to !== undefined;

/** Ledger rows with who they name: the user, and the operator of an adjustment. */
const withUsers = (db: Db) =>
  db
    .selectFrom('coin_records')
    .innerJoin('users', 'users.id', 'coin_records.user_id')
    .leftJoin('users as operator', 'operator.id', 'coin_records.operator_id')
    .select(recordColumns);

/**
 * A filter by the user's whole phone becomes a filter by the user's id (one unique-index look).
 * An unknown phone, or a phone and an id that name different users, keeps no rows (user id 0).
 */
async function byPhone<F extends CoinFilter & { phone?: string }>(db: Db, filter: F): Promise<F> {
  if (!filter.phone) return filter;
  const user = await db.selectFrom('users').select('id').where('phone', '=', filter.phone).executeTakeFirst();
  const id = user && (filter.userId === undefined || filter.userId === user.id) ? user.id : 0;
  return { ...filter, userId: id };
}

const recordColumns = [
  'coin_records.id',
  'coin_records.user_id',
  'users.phone',
  'users.nickname',
  'operator.phone as operator_phone',
  'operator.nickname as operator_nickname',
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
type RecordRow = Selectable<CoinRecordsTable> & {
  phone: string;
  nickname: string;
  operator_phone: string | null;
  operator_nickname: string | null;
};

/** A ledger row as the page shows it and the export writes it. */
function presentRecord(r: RecordRow): CoinRecord {
  return {
    id: r.id,
    userId: r.user_id,
    userPhone: maskPhone(r.phone),
    userNickname: r.nickname,
    delta: r.delta,
    balanceAfter: r.balance_after,
    reason: r.reason as CoinReason,
    refType: r.ref_type,
    refId: r.ref_id,
    operatorId: r.operator_id,
    operatorPhone: r.operator_phone === null ? null : maskPhone(r.operator_phone),
    operatorNickname: r.operator_nickname,
    note: r.note,
    createdAt: iso(r.created_at),
  };
}

export default defineRoutes({
  '/api/coin/fetch/page': {
    handler: async (asked, ctx) => {
      const input = await byPhone(ctx.db, asked);
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      // The ledger is append-only, so id order is time order.
      const byDelta = input.sort === 'delta';
      const offset = input.page * input.size;
      const { rows: list, ...total } = await listPage(ctx.db, ctx.dialect, {
        total: isFiltered(input)
          ? () => countedTotal(ctx.db, filteredRecords(ctx.db, input), input.exactTotal)
          : { kept: 'coin_records' },
        // The whole ledger by time: deep pages start from a remembered anchor (db/anchors.ts).
        anchors: isFiltered(input) || byDelta ? undefined : `coin_records.id.${direction}`,
        offset,
        page: ({ key, skip }) => {
          let ids = filteredRecords(ctx.db, input).select('coin_records.id');
          if (key) ids = ids.where('coin_records.id', direction === 'desc' ? '<=' : '>=', key[1]);
          if (byDelta) ids = ids.orderBy('coin_records.delta', direction);
          // Ids first, from the index alone; then only the page's rows meet their users.
          const pageIds = ids.orderBy('coin_records.id', direction).limit(input.size).offset(skip);
          let rows = withUsers(ctx.db).where('coin_records.id', 'in', pageIds);
          if (byDelta) rows = rows.orderBy('coin_records.delta', direction);
          return rows.orderBy('coin_records.id', direction);
        },
        keyOf: (row) => [row.id, row.id],
      });
      return pageAnswer(list.map(presentRecord), total, input.page, input.size);
    },
  },

  '/api/coin/export': {
    handler: async (asked, ctx) => {
      const input = await byPhone(ctx.db, asked);
      return exportTable({
        filename: '金币流水',
        columns: [
          { header: '流水 ID', width: 10, cell: (r) => r.id },
          { header: '用户 ID', width: 10, cell: (r) => r.userId },
          { header: '手机号', width: 16, cell: (r) => r.userPhone },
          { header: '昵称', width: 16, cell: (r) => r.userNickname },
          { header: '变动', width: 10, cell: (r) => r.delta },
          { header: '变动后余额', width: 12, cell: (r) => r.balanceAfter },
          { header: '原因', width: 12, cell: (r) => labelOf(coinReasons, r.reason) },
          { header: '备注', width: 30, cell: (r) => r.note ?? '' },
          { header: '操作人', width: 16, cell: (r) => r.operatorNickname || r.operatorPhone || '' },
          { header: '时间', width: 20, cell: (r) => shanghaiTime(r.createdAt) },
        ],
        // The ledger is append-only: its time order is id order, as on the list.
        rows: exportRows(
          {
            id: 'coin_records.id',
            column: input.sort === 'delta' ? 'coin_records.delta' : undefined,
            direction: directionOf(input.order),
          },
          (batch) => batch(withUsers(ctx.db).where(recordFilter(input))).execute(),
          (row) => [row.delta, row.id],
          presentRecord,
        ),
      });
    },
  },
});
