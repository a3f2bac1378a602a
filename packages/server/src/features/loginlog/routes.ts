import { loginReasons } from '@appdesk/contract/constants';
import type { loginFilter } from '@appdesk/contract/endpoints/loginlog';
import { formatExactTime, maskPhone } from '@appdesk/contract/format';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { z } from 'zod';
import { describeDevice } from '../../core/device';
import { listPage } from '../../db/anchors';
import type { Db } from '../../db/index';
import { countedTotal, iso, pageAnswer, rangeMs } from '../../db/paging';
import type { Database, LoginLogTable } from '../../db/schema';
import { exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';

type LoginFilter = z.output<typeof loginFilter>;

const reasonLabels = new Map<string, string>(loginReasons.map((r) => [r.value, r.label]));

/** The 登录日志 rows a filter keeps. */
function loginFilterOf(filter: LoginFilter) {
  const { from, to } = rangeMs(filter);
  return (eb: ExpressionBuilder<Database, 'login_log'>) =>
    eb.and([
      ...(filter.result !== 'all' ? [eb('success', '=', filter.result === 'success' ? 1 : 0)] : []),
      ...(filter.phone ? [eb('phone', '=', filter.phone)] : []),
      ...(from !== undefined ? [eb('created_at', '>=', from)] : []),
      ...(to !== undefined ? [eb('created_at', '<=', to)] : []),
    ]);
}

const isFiltered = (filter: LoginFilter) =>
  filter.result !== 'all' || Boolean(filter.phone) || filter.from !== undefined || filter.to !== undefined;

const filtered = (db: Db, filter: LoginFilter) => db.selectFrom('login_log').where(loginFilterOf(filter));

/** A row as operators see it: the phone masked, the reason labelled, the agent in words. */
function presentLogin(r: Selectable<LoginLogTable>) {
  return {
    id: r.id,
    userId: r.user_id,
    phone: maskPhone(r.phone),
    success: r.success === 1,
    reason: r.reason,
    reasonLabel: reasonLabels.get(r.reason) ?? r.reason,
    code: r.code,
    ip: r.ip,
    userAgent: r.user_agent,
    device: describeDevice(r.user_agent),
    createdAt: iso(r.created_at),
  };
}

export default defineRoutes({
  '/api/loginlog/fetch/page': {
    handler: async (input, ctx) => {
      const offset = input.page * input.size;
      const { rows, ...total } = await listPage(ctx.db, ctx.dialect, {
        total: isFiltered(input)
          ? () => countedTotal(ctx.db, filtered(ctx.db, input), input.exactTotal)
          : { kept: 'login_log' },
        // Append-only, so id order is time order: newest first, deep pages from a remembered anchor.
        anchors: isFiltered(input) ? undefined : 'login_log.id.desc',
        offset,
        page: ({ key, skip }) => {
          let ids = filtered(ctx.db, input).select('id');
          if (key) ids = ids.where('id', '<=', key[1]);
          const pageIds = ids.orderBy('id', 'desc').limit(input.size).offset(skip);
          return ctx.db.selectFrom('login_log').selectAll().where('id', 'in', pageIds).orderBy('id', 'desc');
        },
        keyOf: (row) => [row.id, row.id],
      });
      return pageAnswer(rows.map(presentLogin), total, input.page, input.size);
    },
  },

  '/api/loginlog/export': {
    handler: async (input, ctx) =>
      exportTable({
        filename: '登录日志',
        columns: [
          { header: 'ID', width: 10, cell: (e) => e.id },
          { header: '时间', width: 20, cell: (e) => formatExactTime(e.createdAt) },
          { header: '手机号', width: 14, cell: (e) => e.phone },
          { header: '用户 ID', width: 10, cell: (e) => e.userId ?? '' },
          { header: '结果', width: 8, cell: (e) => (e.success ? '成功' : '失败') },
          { header: '原因', width: 24, cell: (e) => e.reasonLabel },
          { header: 'IP', width: 16, cell: (e) => e.ip ?? '' },
          { header: '设备', width: 28, cell: (e) => e.device ?? '' },
          { header: 'User-Agent', width: 50, cell: (e) => e.userAgent ?? '' },
        ],
        // Newest first, as the list shows them.
        rows: exportRows(
          { id: 'login_log.id', direction: 'desc' },
          (batch) => batch(filtered(ctx.db, input).selectAll()).execute(),
          (row) => [row.id, row.id],
          presentLogin,
        ),
      }),
  },
});
