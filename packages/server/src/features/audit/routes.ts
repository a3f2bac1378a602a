import type { auditFilter } from '@appdesk/contract/endpoints/audit';
import { formatExactTime } from '@appdesk/contract/format';
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import { listPage } from '../../db/anchors';
import type { Db, Dialect } from '../../db/index';
import { countedTotal, pageAnswer, rangeMs } from '../../db/paging';
import { directionOf, exportRows, exportTable } from '../../http/export';
import { defineRoutes } from '../../http/route';
import { declaredActions, type EntryView, presentEntry } from './presenter';

type AuditFilter = z.output<typeof auditFilter>;

/** The filter with its phones turned into user ids (-1: no such user, so no row matches). */
interface ResolvedFilter extends AuditFilter {
  actorByPhone?: number;
  targetUser?: number;
}

async function resolvePhones(db: Db, filter: AuditFilter): Promise<ResolvedFilter> {
  const idOf = async (phone: string | undefined) => {
    if (!phone) return undefined;
    const row = await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst();
    return row?.id ?? -1;
  };
  const [actorByPhone, targetUser] = await Promise.all([idOf(filter.actorPhone), idOf(filter.userPhone)]);
  return { ...filter, actorByPhone, targetUser };
}

/** The log rows a filter keeps, as a condition on `a` (audit_log) for any query that has it. */
function entryFilter(filter: ResolvedFilter) {
  const { from, to } = rangeMs(filter);
  const column = (name: string) => sql.ref(`a.${name}`);
  const action = filter.action;
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      ...(filter.actorId !== undefined ? [eb(column('actor_id'), '=', filter.actorId)] : []),
      ...(filter.actorByPhone !== undefined ? [eb(column('actor_id'), '=', filter.actorByPhone)] : []),
      ...(filter.targetUser !== undefined
        ? [eb(column('target_type'), '=', 'user'), eb(column('target_id'), '=', String(filter.targetUser))]
        : []),
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
const filteredEntries = (db: Db, filter: ResolvedFilter) => db.selectFrom('audit_log as a').where(entryFilter(filter));

const isFiltered = (filter: AuditFilter) =>
  filter.actorId !== undefined ||
  Boolean(filter.actorPhone) ||
  Boolean(filter.userPhone) ||
  Boolean(filter.action) ||
  filter.from !== undefined ||
  filter.to !== undefined;

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

/**
 * Log rows with their actor's phone and nickname, and the target user's when the row is about a
 * user (the log keeps its target id as text): one statement, where a second one per page used to
 * look the targets up. The join goes through users' primary key on both databases; the text must
 * be a whole number (SQLite's cast reads "12abc" as 12, so it must also read back as itself).
 */
const withActors = (db: Db, dialect: Dialect) =>
  db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .leftJoin('users as t', (join) =>
      join.on(({ and, eb }) =>
        and([
          eb('a.target_type', '=', 'user'),
          dialect === 'postgres'
            ? sql<SqlBool>`t.id = case when a.target_id ~ '^[0-9]{1,10}$' then a.target_id::bigint end`
            : sql<SqlBool>`t.id = cast(a.target_id as integer) and cast(t.id as text) = a.target_id`,
        ]),
      ),
    )
    .select([...entryColumns, 't.phone as target_phone', 't.nickname as target_nickname']);

const changeLines = (e: EntryView) =>
  e.changes.map((c) => `${c.label}：${c.before ?? '—'} → ${c.after ?? '—'}`).join('\n');

export default defineRoutes({
  '/api/audit/fetch/actions': {
    handler: async () => ({
      list: declaredActions.map((a) => ({
        action: a.action,
        label: a.label,
        targetType: a.target.type,
        targetLabel: a.target.label,
      })),
    }),
  },

  '/api/audit/fetch/page': {
    handler: async (raw, ctx) => {
      const input = { ...raw, ...(await resolvePhones(ctx.db, raw)) };
      const direction = input.order === 'ascend' ? 'asc' : 'desc';
      const offset = input.page * input.size;
      const { rows, ...total } = await listPage(ctx.db, ctx.dialect, {
        total: isFiltered(input)
          ? () => countedTotal(ctx.db, filteredEntries(ctx.db, input), input.exactTotal)
          : { kept: 'audit_log' },
        // The whole log (append-only, id order is time order): deep pages start from a remembered anchor.
        anchors: isFiltered(input) ? undefined : `audit_log.id.${direction}`,
        offset,
        page: ({ key, skip }) => {
          let ids = filteredEntries(ctx.db, input).select('a.id');
          if (key) ids = ids.where('a.id', direction === 'desc' ? '<=' : '>=', key[1]);
          // Ids first, from the index alone; then only the page's rows meet their actors.
          const pageIds = ids.orderBy('a.id', direction).limit(input.size).offset(skip);
          return withActors(ctx.db, ctx.dialect).where('a.id', 'in', pageIds).orderBy('a.id', direction);
        },
        keyOf: (row) => [row.id, row.id],
      });
      await ctx.apps.all();
      const appName = (code: string) => ctx.apps.nameOf(code);
      return pageAnswer(
        rows.map((r) => presentEntry(r, appName)),
        total,
        input.page,
        input.size,
      );
    },
  },

  '/api/audit/export': {
    handler: async (raw, ctx) => {
      const input = await resolvePhones(ctx.db, raw);
      await ctx.apps.all();
      const appName = (code: string) => ctx.apps.nameOf(code);
      return exportTable({
        filename: '操作日志',
        columns: [
          { header: 'ID', width: 10, cell: (e: EntryView) => e.id },
          { header: '时间', width: 20, cell: (e) => formatExactTime(e.createdAt) },
          {
            header: '操作人',
            width: 22,
            cell: (e) => (e.actorId === null ? '系统' : [e.actorName, e.actorPhone].filter(Boolean).join(' · ')),
          },
          { header: '操作', width: 20, cell: (e) => e.actionLabel },
          {
            header: '对象',
            width: 28,
            cell: (e) =>
              [e.targetId ? `${e.targetLabel} #${e.targetId}` : e.targetLabel, e.targetName].filter(Boolean).join(' '),
          },
          { header: '变更', width: 50, cell: changeLines },
          { header: 'IP', width: 16, cell: (e) => e.ip ?? '' },
        ],
        rows: exportRows(
          { id: 'a.id', direction: directionOf(raw.order) },
          (batch) => batch(withActors(ctx.db, ctx.dialect).where(entryFilter(input))).execute(),
          (row) => [row.id, row.id],
          (row) => presentEntry(row, appName),
        ),
      });
    },
  },
});
