import { channels, platforms, selfappActions } from '@appdesk/contract/constants';
import type { selfappRecordFilter } from '@appdesk/contract/endpoints/selfapprecord';
import { labelOf } from '@appdesk/contract/rules';
import { type ExpressionBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { countedTotal, pageAnswer, rangeMs, shanghaiTime } from '../../db/paging';
import { type AppScope, inScope, scoped } from '../../http/app-scope';
import { directionOf, exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';
import { presentRecord, recordsWithNames } from './queries';

type Filter = Omit<z.output<typeof selfappRecordFilter>, 'app'> & { apps: AppScope };

/** The records a filter keeps; `withAction` false for the totals, which count every action. */
function conditions(filter: Filter, withAction = true) {
  const { from, to } = rangeMs(filter);
  const column = (name: string) => sql.ref(`selfapp_records.${name}`);
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      ...(filter.selfappId ? [eb(column('selfapp_id'), '=', filter.selfappId)] : []),
      ...(withAction && filter.action ? [eb(column('action'), '=', filter.action)] : []),
      ...(filter.apps ? [inScope('selfapp_records.app', filter.apps)(eb)] : []),
      ...(filter.channel ? [eb(column('channel'), '=', filter.channel)] : []),
      ...(from !== undefined ? [eb(column('created_at'), '>=', from)] : []),
      ...(to !== undefined ? [eb(column('created_at'), '<=', to)] : []),
    ]);
}

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

/** 推广记录: the operators' list of reports, the totals per promoted app, and the export. */
export default defineRoutes({
  '/api/selfapp/record/fetch/page': {
    handler: async (input, ctx) => {
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      const column = input.sort === 'coins' ? 'selfapp_records.coins' : 'selfapp_records.created_at';
      const filtered = ctx.db.selectFrom('selfapp_records').where(conditions(scoped(ctx, input)));
      const pageIds = filtered
        .select('selfapp_records.id')
        .orderBy(column, direction)
        .orderBy('selfapp_records.id', direction)
        .limit(input.size)
        .offset(input.page * input.size);
      const [rows, total] = await Promise.all([
        recordsWithNames(ctx.db)
          .where('selfapp_records.id', 'in', pageIds)
          .orderBy(column, direction)
          .orderBy('selfapp_records.id', direction)
          .execute(),
        countedTotal(ctx.db, filtered, input.exactTotal),
      ]);
      return pageAnswer(rows.map(presentRecord), total, input.page, input.size);
    },
  },

  '/api/selfapp/record/fetch/totals': {
    handler: async (input, ctx) => {
      const counted = await ctx.db
        .selectFrom('selfapp_records')
        .where(conditions(scoped(ctx, input), false))
        .select((eb) => {
          const count = (action: string) =>
            eb.fn.sum<number>(eb.case().when('action', '=', action).then(1).else(0).end());
          return [
            'selfapp_id',
            count('show').as('shows'),
            count('click').as('clicks'),
            count('install').as('installs'),
            eb.fn.sum<number>('coins').as('coins'),
            eb.fn.sum<number>(eb.case().when('coins', '>', 0).then(1).else(0).end()).as('rewarded'),
          ];
        })
        .groupBy('selfapp_id')
        .execute();
      const ids = counted.map((c) => c.selfapp_id);
      const named = ids.length
        ? await ctx.db.selectFrom('selfapps').select(['id', 'name', 'icon', 'sort']).where('id', 'in', ids).execute()
        : [];
      const byId = new Map(named.map((n) => [n.id, n]));
      const sum = { shows: 0, clicks: 0, installs: 0, coins: 0, rewardedUsers: 0 };
      const list = counted
        .map((c) => {
          const row = {
            shows: Number(c.shows),
            clicks: Number(c.clicks),
            installs: Number(c.installs),
            coins: Number(c.coins),
            rewardedUsers: Number(c.rewarded),
          };
          for (const key of Object.keys(sum) as (keyof typeof sum)[]) sum[key] += row[key];
          const app = byId.get(c.selfapp_id);
          return {
            selfappId: c.selfapp_id,
            selfappName: app?.name ?? '',
            icon: app?.icon ?? '',
            ...row,
            clickRate: rate(row.clicks, row.shows),
            installRate: rate(row.installs, row.clicks),
            sort: app?.sort ?? Number.MAX_SAFE_INTEGER,
          };
        })
        .sort((a, b) => b.shows - a.shows || a.sort - b.sort || a.selfappId - b.selfappId)
        .map(({ sort: _sort, ...row }) => row);
      return {
        list,
        sum: { ...sum, clickRate: rate(sum.clicks, sum.shows), installRate: rate(sum.installs, sum.clicks) },
      };
    },
  },

  '/api/selfapp/record/export': {
    handler: async (input, ctx) => {
      await ctx.apps.all();
      return exportTable({
        filename: '推广记录',
        columns: [
          { header: '记录 ID', width: 10, cell: (r) => r.id },
          { header: '推广应用', width: 20, cell: (r) => r.selfappName || `已删除的应用 #${r.selfappId}` },
          { header: '行为', width: 8, cell: (r) => labelOf(selfappActions, r.action) },
          { header: '来源应用', width: 12, cell: (r) => ctx.apps.nameOf(r.app) },
          { header: '平台', width: 10, cell: (r) => labelOf(platforms, r.platform) },
          { header: '渠道', width: 16, cell: (r) => labelOf(channels, r.channel) },
          { header: '设备 ID', width: 24, cell: (r) => r.deviceId },
          { header: '用户 ID', width: 10, cell: (r) => r.userId ?? '' },
          { header: '用户手机号', width: 16, cell: (r) => r.userPhone ?? '' },
          { header: '奖励金币', width: 10, cell: (r) => r.coins },
          { header: '时间', width: 20, cell: (r) => shanghaiTime(r.createdAt) },
        ],
        rows: exportRows(
          {
            id: 'selfapp_records.id',
            column: input.sort === 'coins' ? 'selfapp_records.coins' : 'selfapp_records.created_at',
            direction: directionOf(input.order),
          },
          (batch) => batch(recordsWithNames(ctx.db).where(conditions(scoped(ctx, input)))).execute(),
          (row) => [input.sort === 'coins' ? row.coins : row.created_at, row.id],
          presentRecord,
        ),
      });
    },
  },
});
