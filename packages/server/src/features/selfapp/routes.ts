import { countedTotal, pageAnswer, pageOf, shanghaiTime } from '../../db/paging';
import { appScope, mustReach, reaches } from '../../http/app-scope';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedHandler, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { appsColumn, appsOf, checkShowIn, loadSelfapp, presentSelfapp, type SelfappRow } from './queries';

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const columnOf = {
  name: 'name',
  icon: 'icon',
  description: 'description',
  packageId: 'package_id',
  androidUrl: 'android_url',
  iosUrl: 'ios_url',
  rewardCoins: 'reward_coins',
  sort: 'sort',
} as const;

/**
 * Scope (docs/permissions.md): a promoted app is of the apps that show it. An operator limited to
 * some apps sees those shown in one of theirs, and changes only those shown in theirs alone (a
 * change would change what another app shows), naming only their apps where it shows.
 */
const seesSelfapp = (ctx: RequestContext, row: SelfappRow) => appsOf(row.apps).some((app) => reaches(ctx, app));

async function mustReachAll(ctx: RequestContext, codes: readonly string[]) {
  for (const code of codes) await mustReach(ctx, code);
}

/** 自家应用: operators set up the company's other apps that our apps promote. */
const selfappList = pagedHandler('/api/selfapp/fetch/page', {
  handler: async (input, ctx) => {
    const apps = appScope(ctx, input.app);
    let filtered = ctx.db.selectFrom('selfapps');
    if (input.enabled !== undefined) filtered = filtered.where('enabled', '=', input.enabled ? 1 : 0);
    if (apps) filtered = filtered.where((eb) => eb.or(apps.map((app) => eb('apps', 'like', `%,${app},%`))));
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    const column = ({ sort: 'sort', rewardCoins: 'reward_coins', createdAt: 'created_at' } as const)[input.sort];
    const { rows, ...total } = await pageOf(
      filtered.selectAll().orderBy(column, direction).orderBy('id', direction),
      countedTotal(ctx.db, filtered, input.exactTotal),
      input.page,
      input.size,
    );
    const ids = rows.map((r) => r.id);
    const counts = ids.length
      ? await ctx.db
          .selectFrom('selfapp_records')
          .select((eb) => [
            'selfapp_id',
            eb.fn.countAll<number>().as('installs'),
            eb.fn.sum<number>(eb.case().when('coins', '>', 0).then(1).else(0).end()).as('rewarded'),
          ])
          .where('action', '=', 'install')
          .where('selfapp_id', 'in', ids)
          .groupBy('selfapp_id')
          .execute()
      : [];
    const byId = new Map(counts.map((c) => [c.selfapp_id, c]));
    const list = rows.map((r) => ({
      ...presentSelfapp(r),
      installs: Number(byId.get(r.id)?.installs ?? 0),
      rewarded: Number(byId.get(r.id)?.rewarded ?? 0),
    }));
    return pageAnswer(list, total, input.page, input.size);
  },
});

export default defineRoutes({
  '/api/selfapp/make': {
    transaction: true,
    message: '推广应用已创建',
    handler: async (input, ctx) => {
      if (!input.androidUrl && !input.packageId && !input.iosUrl) {
        throw fail.badInput('请至少填写安卓包名、安卓下载地址或 App Store 地址中的一项');
      }
      await checkShowIn(ctx.apps, input.apps);
      await mustReachAll(ctx, input.apps);
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('selfapps')
        .values({
          name: input.name,
          icon: input.icon,
          description: input.description,
          package_id: input.packageId,
          android_url: input.androidUrl,
          ios_url: input.iosUrl,
          reward_coins: input.rewardCoins,
          sort: input.sort,
          enabled: input.enabled ? 1 : 0,
          apps: appsColumn(input.apps),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const selfapp = presentSelfapp(await loadSelfapp(ctx.db, id));
      await ctx.audit({ targetId: id, after: selfapp });
      return { selfapp };
    },
  },

  '/api/selfapp/update': {
    transaction: true,
    message: '推广应用已保存',
    handler: async (input, ctx) => {
      const { id, enabled, apps, ...changes } = input;
      const given = defined(changes);
      const fields = [
        ...Object.keys(given),
        ...(enabled === undefined ? [] : ['enabled']),
        ...(apps === undefined ? [] : ['apps']),
      ] as (keyof typeof input)[];
      if (fields.length === 0) throw fail.badInput('请至少修改一项');
      if (apps !== undefined) await checkShowIn(ctx.apps, apps);
      const current = await loadSelfapp(ctx.db, id);
      await mustReachAll(ctx, [...appsOf(current.apps), ...(apps ?? [])]);
      const next = { ...presentSelfapp(current), ...given };
      if (!next.androidUrl && !next.packageId && !next.iosUrl) {
        throw fail.badInput('请至少填写安卓包名、安卓下载地址或 App Store 地址中的一项');
      }
      const set: Record<string, unknown> = { updated_at: Date.now() };
      for (const [key, value] of Object.entries(given)) set[columnOf[key as keyof typeof columnOf]] = value;
      if (enabled !== undefined) set.enabled = enabled ? 1 : 0;
      if (apps !== undefined) set.apps = appsColumn(apps);
      await ctx.db.updateTable('selfapps').set(set).where('id', '=', id).execute();
      if (given.icon !== undefined && given.icon !== current.icon) ctx.releaseFile(current.icon);
      const before = presentSelfapp(current);
      const after = presentSelfapp(await loadSelfapp(ctx.db, id));
      const pick = (s: typeof after) => Object.fromEntries(fields.map((f) => [f, s[f as keyof typeof s]]));
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      return { selfapp: after };
    },
  },

  '/api/selfapp/fetch/page': selfappList,
  '/api/selfapp/export': listExport(selfappList, (ctx) => ({
    filename: '推广应用',
    columns: [
      { header: 'ID', width: 10, cell: (a) => a.id },
      { header: '名称', width: 20, cell: (a) => a.name },
      { header: '安卓包名', width: 28, cell: (a) => a.packageId },
      { header: '安装奖励金币', width: 12, cell: (a) => a.rewardCoins },
      { header: '展示位置', width: 16, cell: (a) => a.apps.map((code) => ctx.apps.nameOf(code)).join('、') },
      { header: '安装数', width: 8, cell: (a) => a.installs },
      { header: '已奖励', width: 8, cell: (a) => a.rewarded },
      { header: '排序', width: 8, cell: (a) => a.sort },
      { header: '启用', width: 8, cell: (a) => yesNo(a.enabled) },
      { header: '创建时间', width: 18, cell: (a) => shanghaiTime(a.createdAt) },
    ],
  })),

  '/api/selfapp/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadSelfapp(ctx.db, input.id);
      if (ctx.grants?.apps && !seesSelfapp(ctx, row)) throw fail.notFound('推广应用不存在');
      return { selfapp: presentSelfapp(row) };
    },
  },

  '/api/selfapp/remove': {
    transaction: true,
    message: '推广应用已删除',
    handler: async (input, ctx) => {
      const current = await loadSelfapp(ctx.db, input.id);
      await mustReachAll(ctx, appsOf(current.apps));
      await ctx.db.deleteFrom('selfapps').where('id', '=', input.id).execute();
      ctx.releaseFile(current.icon);
      await ctx.audit({ targetId: input.id, before: presentSelfapp(current) });
      return null;
    },
  },
});
