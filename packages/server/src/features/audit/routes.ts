import { endpointEntries } from '@appdesk/contract';
import type { auditFilter } from '@appdesk/contract/endpoints/audit';
import { maskPhone } from '@appdesk/contract/format';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import { idOrderStart } from '../../db/anchors';
import { readBounded } from '../../db/compiled';
import type { Db } from '../../db/index';
import { countedTotal, DEEP_PAGE_ROWS, iso, keptTotal, pageAnswer, rangeMs, shanghaiTime } from '../../db/paging';
import type { AuditLogTable } from '../../db/schema';
import { exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';

type AuditFilter = z.output<typeof auditFilter>;

/** The log rows a filter keeps, as a condition on `a` (audit_log) for any query that has it. */
function entryFilter(filter: AuditFilter) {
  const { from, to } = rangeMs(filter);
  const column = (name: string) => sql.ref(`a.${name}`);
  const action = filter.action;
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      ...(filter.actorId !== undefined ? [eb(column('actor_id'), '=', filter.actorId)] : []),
      // `users` matches every `users.*`; a full name matches itself.
      ...(action
        ? [
            eb.or([
              eb(column('action'), '=', action),
              eb.and([eb(column('action'), '>', `${action}.`), eb(column('action'), '<', `${action}/`)]),
            ]),
          ]
        : []),
      ...(from !== undefined ? [eb(column('created_at'), '>=', from)] : []),
      ...(to !== undefined ? [eb(column('created_at'), '<=', to)] : []),
    ]);
}

/** The filtered log alone: page ids and counts come from its indexes without touching users. */
const filteredEntries = (db: Db, filter: AuditFilter) => db.selectFrom('audit_log as a').where(entryFilter(filter));

const isFiltered = (filter: AuditFilter) =>
  filter.actorId !== undefined || Boolean(filter.action) || filter.from !== undefined || filter.to !== undefined;

/** Log rows with their actor's phone and nickname. */
const withActors = (db: Db) =>
  db.selectFrom('audit_log as a').leftJoin('users as u', 'u.id', 'a.actor_id').select(entryColumns);

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
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      const offset = input.page * input.size;
      const counting = isFiltered(input)
        ? countedTotal(ctx.db, filteredEntries(ctx.db, input), input.exactTotal)
        : keptTotal(ctx.db, 'audit_log');
      // The whole log (append-only, id order is time order): deep pages start from a remembered anchor.
      const start = await idOrderStart(ctx.db, `audit_log.id.${direction}`, {
        anchored: !isFiltered(input),
        total: counting,
        offset,
      });
      let ids = filteredEntries(ctx.db, input).select('a.id');
      if (start.key) ids = ids.where('a.id', direction === 'desc' ? '<=' : '>=', start.key[1]);
      // Ids first, from the index alone; then only the page's rows meet their actors.
      const pageIds = ids.orderBy('a.id', direction).limit(input.size).offset(start.skip);
      const [rows, total] = await Promise.all([
        readBounded(
          ctx.db,
          withActors(ctx.db).where('a.id', 'in', pageIds).orderBy('a.id', direction),
          !isFiltered(input) && start.skip < DEEP_PAGE_ROWS,
        ),
        counting,
      ]);
      start.remember(rows[0]?.id);
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
            withActors(ctx.db)
              .where(entryFilter(input))
              .where('a.id', '>', after)
              .orderBy('a.id')
              .limit(limit)
              .execute(),
          presentEntry,
        ),
      }),
  },
});
