import { type loginFilter, loginReasons } from '@appdesk/contract/endpoints/audit';
import { maskPhone } from '@appdesk/contract/format';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { z } from 'zod';
import { idOrderStart } from '../../db/anchors';
import type { Db } from '../../db/index';
import { countedTotal, iso, keptTotal, pageAnswer, rangeMs } from '../../db/paging';
import type { Database, LoginLogTable } from '../../db/schema';
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

/** A row as operators see it: the phone masked, the reason labelled. */
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
    createdAt: iso(r.created_at),
  };
}

export default defineRoutes({
  '/api/audit/fetch/login/page': {
    handler: async (input, ctx) => {
      const offset = input.page * input.size;
      const counting = isFiltered(input)
        ? countedTotal(ctx.db, filtered(ctx.db, input), input.exactTotal)
        : keptTotal(ctx.db, 'login_log');
      // Append-only, so id order is time order: newest first, deep pages from a remembered anchor.
      const start = await idOrderStart(ctx.db, 'login_log.id.desc', {
        anchored: !isFiltered(input),
        total: counting,
        offset,
      });
      let ids = filtered(ctx.db, input).select('id');
      if (start.key) ids = ids.where('id', '<=', start.key[1]);
      const pageIds = ids.orderBy('id', 'desc').limit(input.size).offset(start.skip);
      const [rows, total] = await Promise.all([
        ctx.db.selectFrom('login_log').selectAll().where('id', 'in', pageIds).orderBy('id', 'desc').execute(),
        counting,
      ]);
      start.remember(rows[0]?.id);
      return pageAnswer(rows.map(presentLogin), total, input.page, input.size);
    },
  },
});
