import { endpointEntries } from '@appdesk/contract';
import type { auditFilter } from '@appdesk/contract/endpoints/audit';
import { maskPhone } from '@appdesk/contract/format';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { iso, pageAnswer, pageOf, rangeMs, shanghaiTime } from '../../db/paging';
import type { AuditLogTable } from '../../db/schema';
import { exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';

type AuditFilter = z.output<typeof auditFilter>;

function filteredEntries(db: Db, filter: AuditFilter) {
  const { from, to } = rangeMs(filter);
  let query = db.selectFrom('audit_log as a').leftJoin('users as u', 'u.id', 'a.actor_id');
  if (filter.actorId !== undefined) query = query.where('a.actor_id', '=', filter.actorId);
  if (filter.action) {
    // `users` matches every `users.*`; a full name matches itself.
    const action = filter.action;
    query = query.where((eb) =>
      eb.or([
        eb('a.action', '=', action),
        eb.and([eb('a.action', '>', `${action}.`), eb('a.action', '<', `${action}/`)]),
      ]),
    );
  }
  if (from !== undefined) query = query.where('a.created_at', '>=', from);
  if (to !== undefined) query = query.where('a.created_at', '<=', to);
  return query;
}

const entryColumns = [
  'a.id',
  'a.actor_id',
  'u.phone',
  'u.nickname',
  'a.action',
  'a.target_type',
  'a.target_id',
  'a.before',
  'a.after',
  'a.ip',
  'a.created_at',
] as const;

/** Every action an endpoint declares (contract `audit`), with its Chinese label. */
const declared = new Map(
  endpointEntries.flatMap(([, def]) => (def.audit ? [def.audit] : [])).map((audit) => [audit.action, audit]),
);
const targetLabels = new Map([...declared.values()].map((a) => [a.target.type, a.target.label]));
const actionLabel = (action: string) => declared.get(action)?.label ?? action;
const targetLabel = (type: string) => targetLabels.get(type) ?? type;

const parse = (text: string | null) => (text === null ? null : JSON.parse(text));
const actorName = (row: { phone: string | null; nickname: string | null }) =>
  row.phone === null ? null : row.nickname || maskPhone(row.phone);

/** What the list and export select: a log row and its actor's phone and nickname. */
type EntryRow = Selectable<AuditLogTable> & { phone: string | null; nickname: string | null };

/** An operation-log row as the page shows it and the export writes it. */
function presentEntry(r: EntryRow) {
  return {
    id: r.id,
    actorId: r.actor_id,
    actorName: actorName(r),
    action: r.action,
    actionLabel: actionLabel(r.action),
    targetType: r.target_type,
    targetLabel: targetLabel(r.target_type),
    targetId: r.target_id,
    before: parse(r.before),
    after: parse(r.after),
    ip: r.ip,
    createdAt: iso(r.created_at),
  };
}

export default defineRoutes({
  '/api/audit/fetch/actions': {
    handler: async () => ({
      list: [...declared.values()].map((a) => ({
        action: a.action,
        label: a.label,
        targetType: a.target.type,
        targetLabel: a.target.label,
      })),
    }),
  },

  '/api/audit/fetch/page': {
    handler: async (input, ctx) => {
      const base = filteredEntries(ctx.db, input);
      const { rows, total } = await pageOf(
        base.select(entryColumns).orderBy('a.id', input.order === 'ascend' ? 'asc' : 'desc'),
        base,
        input.page,
        input.size,
      );
      return pageAnswer(rows.map(presentEntry), total, input.page, input.size);
    },
  },

  '/api/audit/export': {
    handler: async (input, ctx) =>
      exportTable({
        filename: '操作日志',
        columns: [
          { header: 'ID', width: 10, cell: (e) => e.id },
          { header: '时间', width: 20, cell: (e) => shanghaiTime(e.createdAt) },
          { header: '操作人', width: 16, cell: (e) => e.actorName ?? '' },
          { header: '操作', width: 26, cell: (e) => e.actionLabel },
          { header: '对象', width: 16, cell: (e) => (e.targetId ? `${e.targetLabel} #${e.targetId}` : e.targetLabel) },
          { header: '修改前', width: 40, cell: (e) => (e.before == null ? '' : JSON.stringify(e.before)) },
          { header: '修改后', width: 40, cell: (e) => (e.after == null ? '' : JSON.stringify(e.after)) },
          { header: 'IP', width: 16, cell: (e) => e.ip ?? '' },
        ],
        rows: exportRows(
          (after, limit) =>
            filteredEntries(ctx.db, input)
              .select(entryColumns)
              .where('a.id', '>', after)
              .orderBy('a.id')
              .limit(limit)
              .execute(),
          presentEntry,
        ),
      }),
  },
});
