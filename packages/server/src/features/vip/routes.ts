import type { VipRecord } from '@appdesk/contract/endpoints/vip';
import { vipRecord } from '@appdesk/contract/endpoints/vip';
import { maskPhone } from '@appdesk/contract/format';
import type { Selectable } from 'kysely';
import { countedTotal, iso, isoOrNull, keptTotal, pageAnswer, shanghaiTime } from '../../db/paging';
import { appScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { listExport, pagedHandler, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { changeVip } from './ledger';
import type { VipRecordsTable } from './tables';

type RecordRow = Selectable<VipRecordsTable> & { phone: string };

function presentRecord(r: RecordRow): VipRecord {
  return {
    id: r.id,
    userId: r.user_id,
    userPhone: maskPhone(r.phone),
    app: r.app,
    days: r.days,
    beforeExpiresAt: isoOrNull(r.before_expires_at === null ? null : Number(r.before_expires_at)),
    afterExpiresAt: isoOrNull(r.after_expires_at === null ? null : Number(r.after_expires_at)),
    reason: r.reason as VipRecord['reason'],
    refType: r.ref_type,
    refId: r.ref_id,
    operatorId: r.operator_id,
    note: r.note,
    createdAt: iso(Number(r.created_at)),
  };
}

const reasonWord = wordsOf(vipRecord.shape.reason);

const recordList = pagedHandler('/api/vip/fetch/page', {
  handler: async (input, ctx) => {
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    const apps = appScope(ctx, input.app);
    let filtered = ctx.db.selectFrom('vip_records');
    if (input.userId !== undefined) filtered = filtered.where('vip_records.user_id', '=', input.userId);
    if (apps !== undefined) filtered = filtered.where(inScope('vip_records.app', apps));
    if (input.reason !== undefined) filtered = filtered.where('vip_records.reason', '=', input.reason);
    const counting =
      input.userId === undefined && apps === undefined && input.reason === undefined
        ? keptTotal(ctx.db, 'vip_records')
        : countedTotal(ctx.db, filtered, input.exactTotal);
    const pageIds = filtered
      .select('vip_records.id')
      .orderBy('vip_records.id', direction)
      .limit(input.size)
      .offset(input.page * input.size);
    const rows = ctx.db
      .selectFrom('vip_records')
      .innerJoin('users', 'users.id', 'vip_records.user_id')
      .selectAll('vip_records')
      .select('users.phone')
      .where('vip_records.id', 'in', pageIds)
      .orderBy('vip_records.id', direction)
      .execute();
    const [list, total] = await Promise.all([rows, counting]);
    return pageAnswer(list.map(presentRecord), total, input.page, input.size);
  },
});

export default defineRoutes({
  '/api/vip/update': {
    transaction: true,
    message: '会员时长已调整',
    handler: async (input, ctx) => {
      const result = await changeVip(ctx.db, {
        userId: input.id,
        app: input.app,
        days: input.days,
        reason: 'admin',
        operatorId: ctx.user.id,
        note: input.reason,
      });
      if (result.changedMs === 0) throw fail.conflict('该用户没有剩余的会员时长可以收回');
      await ctx.audit({
        targetId: input.id,
        before: { app: input.app, vipExpiresAt: isoOrNull(result.before) },
        after: { app: input.app, vipExpiresAt: isoOrNull(result.after), days: input.days, reason: input.reason },
      });
      return { vipExpiresAt: isoOrNull(result.after), recordId: result.recordId };
    },
  },

  '/api/vip/fetch/page': recordList,
  '/api/vip/export': {
    // The app's name (data, not a constant) is read from the registry of the call.
    handler: (input, ctx) =>
      listExport(recordList, {
        filename: '会员变动记录',
        columns: [
          { header: 'ID', width: 10, cell: (r) => r.id },
          { header: '时间', width: 18, cell: (r) => shanghaiTime(r.createdAt) },
          { header: '用户', width: 16, cell: (r) => r.userPhone },
          { header: '应用', width: 12, cell: (r) => ctx.apps.nameOf(r.app) },
          { header: '原因', width: 12, cell: (r) => reasonWord(r.reason) },
          { header: '天数', width: 8, cell: (r) => r.days ?? '永久' },
          { header: '变动前到期', width: 18, cell: (r) => shanghaiTime(r.beforeExpiresAt) },
          { header: '变动后到期', width: 18, cell: (r) => shanghaiTime(r.afterExpiresAt) },
          { header: '关联', width: 20, cell: (r) => (r.refType ? `${r.refType} ${r.refId ?? ''}` : '') },
          { header: '备注', width: 30, cell: (r) => r.note ?? '' },
        ],
      }).handler(input, ctx),
  },
});
