import { countedTotal, shanghaiTime } from '../../db/paging';
import { mustReach, reaches, scoped } from '../../http/app-scope';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedRoute } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import {
  canonical,
  type Entry,
  filteredEntries,
  loadEntry,
  orderedEntries,
  presentEntry,
  recordRevision,
  revisionsOf,
} from './queries';
import { type ConfigType, forgetEntries, resolveFor } from './resolve';

/** What the operation log keeps of an entry. */
const logged = ({ type, value, overrides, description, revision }: Entry) => ({
  type,
  value,
  overrides,
  description,
  revision,
});

/**
 * Takes the entry's row before reading it (PostgreSQL's row lock; SQLite has one writer), so two
 * operators changing one key at once go one after the other: the second reads the first's revision
 * and writes the next one, instead of both writing the same number.
 */
async function lockEntry(ctx: SignedInContext, id: number) {
  const locked = await ctx.db
    .updateTable('key_values')
    .set((eb) => ({ revision: eb.ref('revision') }))
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!locked) throw fail.notFound('键值不存在');
  const row = await loadEntry(ctx.db, id);
  await mustReach(ctx, row.app);
  return row;
}

/**
 * Writes a new state of an entry as its next revision, and logs before and after. With
 * `baseRevision` (the revision the operator edited) a save by someone else in between is refused.
 */
async function change(
  ctx: SignedInContext,
  id: number,
  next: (row: Awaited<ReturnType<typeof loadEntry>>) => {
    type: ConfigType;
    value: string;
    overrides: string;
    description: string;
  },
  action: 'update' | 'rollback',
  rolledBackTo: number | null = null,
  baseRevision?: number,
) {
  const row = await lockEntry(ctx, id);
  if (baseRevision !== undefined && row.revision !== baseRevision) throw fail.conflict('已被他人修改，请刷新后重试');
  const before = presentEntry(row);
  const state = next(row);
  const revision = row.revision + 1;
  await ctx.db
    .updateTable('key_values')
    .set({ ...state, revision, updated_by: ctx.user.id, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
  await recordRevision(
    ctx.db,
    { id, app: row.app, key: row.key, ...state, revision },
    action,
    ctx.user.id,
    rolledBackTo,
  );
  const after = presentEntry(await loadEntry(ctx.db, id));
  await ctx.audit({ targetId: id, before: logged(before), after: logged(after) });
  forgetEntries(ctx.config);
  return { entry: after };
}

const configList = pagedRoute('/api/a11t/fetch/page', {
  rows: (input, ctx) => orderedEntries(ctx.db, scoped(ctx, input)),
  total: (input, ctx) => countedTotal(ctx.db, filteredEntries(ctx.db, scoped(ctx, input)), input.exactTotal),
  present: (rows) => rows.map(presentEntry),
});

export default defineRoutes({
  '/api/a11t/make': {
    transaction: true,
    message: '键值已创建',
    handler: async (input, ctx) => {
      const exists = await ctx.db
        .selectFrom('key_values')
        .select('id')
        .where('app', '=', input.app)
        .where('key', '=', input.key)
        .executeTakeFirst();
      if (exists) throw fail.conflict(`键名 ${input.key} 已存在`);
      const typed = canonical(input.type, input.value, input.overrides);
      const now = Date.now();
      const state = {
        app: input.app,
        key: input.key,
        type: input.type,
        value: typed.value,
        overrides: JSON.stringify(typed.overrides),
        description: input.description,
        revision: 1,
      };
      // Two operators making one key at once: the unique (app, key) lets one in, the other is told.
      const made = await ctx.db
        .insertInto('key_values')
        .values({ ...state, updated_by: ctx.user.id, created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['app', 'key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!made) throw fail.conflict(`键名 ${input.key} 已存在`);
      const { id } = made;
      await recordRevision(ctx.db, { id, ...state }, 'make', ctx.user.id);
      const entry = presentEntry(await loadEntry(ctx.db, id));
      await ctx.audit({ targetId: id, after: { key: entry.key, ...logged(entry) } });
      forgetEntries(ctx.config);
      return { entry };
    },
  },

  '/api/a11t/update': {
    transaction: true,
    message: '已保存为新的修订',
    handler: async (input, ctx) => {
      const { id, baseRevision, ...changes } = input;
      if (Object.values(changes).every((v) => v === undefined)) throw fail.badInput('请至少修改一项');
      return change(
        ctx,
        id,
        (row) => {
          const type = (changes.type ?? row.type) as ConfigType;
          const typed = canonical(type, changes.value ?? row.value, changes.overrides ?? JSON.parse(row.overrides));
          return {
            type,
            value: typed.value,
            overrides: JSON.stringify(typed.overrides),
            description: changes.description ?? row.description,
          };
        },
        'update',
        null,
        baseRevision,
      );
    },
  },

  '/api/a11t/rollback': {
    transaction: true,
    message: '已回滚（保存为新的修订）',
    handler: async (input, ctx) => {
      const target = await ctx.db
        .selectFrom('key_value_revisions')
        .selectAll()
        .where('key_value_id', '=', input.id)
        .where('revision', '=', input.revision)
        .executeTakeFirst();
      if (!target) throw fail.notFound(`修订 ${input.revision} 不存在`);
      return change(
        ctx,
        input.id,
        () => ({
          type: target.type as ConfigType,
          value: target.value,
          overrides: target.overrides,
          description: target.description,
        }),
        'rollback',
        input.revision,
      );
    },
  },

  '/api/a11t/remove': {
    transaction: true,
    message: '键值已删除（修订历史保留）',
    handler: async (input, ctx) => {
      const row = await lockEntry(ctx, input.id);
      const before = presentEntry(row);
      await ctx.db.deleteFrom('key_values').where('id', '=', input.id).execute();
      await recordRevision(ctx.db, { ...row, revision: row.revision + 1 }, 'remove', ctx.user.id);
      await ctx.audit({ targetId: input.id, before: { key: before.key, ...logged(before) } });
      forgetEntries(ctx.config);
      return null;
    },
  },

  '/api/a11t/fetch/page': configList,
  '/api/a11t/export': listExport(configList, (ctx) => ({
    filename: '键值配置',
    columns: [
      { header: 'ID', width: 10, cell: (e) => e.id },
      { header: '应用', width: 12, cell: (e) => ctx.apps.nameOf(e.app) },
      { header: '键名', width: 28, cell: (e) => e.key },
      { header: '类型', width: 10, cell: (e) => e.type },
      { header: '值', width: 40, cell: (e) => e.value },
      { header: '说明', width: 30, cell: (e) => e.description },
      { header: '修订号', width: 8, cell: (e) => e.revision },
      { header: '修改人', width: 16, cell: (e) => e.updatedBy },
      { header: '更新时间', width: 18, cell: (e) => shanghaiTime(e.updatedAt) },
    ],
  })),

  '/api/a11t/fetch/revisions': {
    handler: async (input, ctx) => ({ list: await revisionsOf(ctx.db, input.id, (app) => reaches(ctx, app)) }),
  },

  '/api/a11t/fetch': {
    handler: async (input, ctx) => {
      const { tag, values } = await resolveFor(ctx.db, ctx.config, input.app, input);
      return input.tag === tag ? { tag, unchanged: true as const } : { tag, values: values() };
    },
  },
});
