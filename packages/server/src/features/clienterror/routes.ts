import { clientErrorKinds, clientErrorStatuses } from '@appdesk/contract/constants';
import { assertRoom, consumeAll, type Limit } from '../../core/throttle';
import { countedTotal, shanghaiTime } from '../../db/paging';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { presentGroup, presentSample } from './presenter';
import { cleanReport, filteredGroups, loadGroup, orderedGroups, recordReport, samplesOf } from './queries';

const MINUTE = 60_000;

/** Reports per client address and from everyone in a minute: anyone may send them, and each is a write. */
function reportLimits(ip: string, quotas: { clientErrorsPerAddressPerMinute: number; clientErrorsPerMinute: number }) {
  const limit = (key: string, max: number): Limit => ({ key, max, windowMs: MINUTE, refusal: '错误上报过于频繁' });
  return [
    limit(`clienterror:ip:${ip}`, quotas.clientErrorsPerAddressPerMinute),
    limit('clienterror:all', quotas.clientErrorsPerMinute),
  ];
}

const kindWord = wordsOf(clientErrorKinds);
const statusWord = wordsOf(clientErrorStatuses);

const groupList = pagedRoute('/api/clienterror/fetch/page', {
  rows: (input, ctx) => orderedGroups(ctx.db, input),
  total: (input, ctx) => countedTotal(ctx.db, filteredGroups(ctx.db, input), input.exactTotal),
  present: (rows) => rows.map(presentGroup),
});

export default defineRoutes({
  '/api/clienterror/report': {
    message: '已收到',
    handler: async (input, ctx) => {
      const limits = reportLimits(ctx.ip, ctx.config.quotas);
      // A look first (a read): a flood past its allowance costs no write.
      for (const limit of limits) await assertRoom(ctx.db, limit);
      const report = cleanReport(input, ctx.userAgent);
      await ctx.db.transaction().execute(async (trx) => {
        await consumeAll(
          trx,
          limits.map((limit) => ({ limit })),
        );
        await recordReport(trx, report);
      });
      return null;
    },
  },

  '/api/clienterror/fetch/page': groupList,
  '/api/clienterror/export': listExport(groupList, {
    filename: '前端错误',
    columns: [
      { header: 'ID', width: 10, cell: (g) => g.id },
      { header: '错误信息', width: 50, cell: (g) => g.message },
      { header: '错误类型', width: 12, cell: (g) => kindWord(g.kind) },
      { header: '版本', width: 14, cell: (g) => g.release },
      { header: '首个调用位置', width: 40, cell: (g) => g.frame },
      { header: '次数', width: 8, cell: (g) => g.count },
      { header: '首次出现', width: 18, cell: (g) => shanghaiTime(g.firstSeenAt) },
      { header: '最近出现', width: 18, cell: (g) => shanghaiTime(g.lastSeenAt) },
      { header: '最近页面', width: 30, cell: (g) => g.lastPath },
      { header: '状态', width: 10, cell: (g) => statusWord(g.status) },
      { header: '处理人', width: 16, cell: (g) => g.resolvedBy ?? '' },
    ],
  }),

  '/api/clienterror/fetch/detail': {
    handler: async (input, ctx) => {
      const [group, samples] = await Promise.all([loadGroup(ctx.db, input.id), samplesOf(ctx.db, input.id)]);
      return { group: presentGroup(group), samples: samples.map(presentSample) };
    },
  },

  '/api/clienterror/resolve': {
    transaction: true,
    message: '已标记为已处理，再次出现时会重新列为未处理',
    handler: async (input, ctx) => {
      const before = presentGroup(await loadGroup(ctx.db, input.id));
      if (before.status === 'resolved') throw fail.conflict('这组错误已经标记为已处理');
      await ctx.db
        .updateTable('client_error_groups')
        .set({ resolved_at: Date.now(), resolved_by: ctx.user.id })
        .where('id', '=', input.id)
        .execute();
      const group = presentGroup(await loadGroup(ctx.db, input.id));
      await ctx.audit({ targetId: input.id, before: { status: before.status }, after: { status: group.status } });
      return { group };
    },
  },
});
