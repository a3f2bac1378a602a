import type { Plan, planEndpoints } from '@appdesk/contract/endpoints/plan';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { countedTotal, iso, shanghaiTime } from '../../db/paging';
import { type AppScope, inScope, mustReach, mustSee, scoped } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { type InputOf, listExport, pagedRoute, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import type { PlansTable } from './tables';

type Row = Selectable<PlansTable>;
type NewPlan = z.output<(typeof planEndpoints)['/api/plan/make']['input']>;
type PlanChanges = Omit<z.output<(typeof planEndpoints)['/api/plan/update']['input']>, 'id'>;

export function presentPlan(r: Row): Plan {
  return {
    id: r.id,
    app: r.app,
    name: r.name,
    description: r.description,
    price: Number(r.price),
    originalPrice: Number(r.original_price),
    durationDays: r.duration_days,
    bonusCoins: Number(r.bonus_coins),
    iosProductId: r.ios_product_id,
    androidProductId: r.android_product_id,
    sort: r.sort,
    onSale: r.on_sale === 1,
    badge: r.badge,
    createdAt: iso(Number(r.created_at)),
    updatedAt: iso(Number(r.updated_at)),
  };
}

async function loadPlan(db: Db, id: number) {
  const row = await db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('会员套餐不存在');
  return row;
}

/** The column values of a plan's fields; `lifetime` decides whether the days are kept. */
function columnsOf(input: Partial<NewPlan>, current?: Row) {
  const lifetime = input.lifetime ?? (current ? current.duration_days === null : false);
  const days = input.durationDays ?? current?.duration_days ?? 30;
  const price = input.price ?? (current ? Number(current.price) : 0);
  const original = input.originalPrice ?? (current ? Number(current.original_price) : 0);
  if (original !== 0 && original < price) throw fail.badInput('原价不能低于售价（没有原价请填 0）');
  const set = <T>(value: T | undefined) => value;
  return {
    app: set(input.app),
    name: set(input.name),
    description: set(input.description),
    price: set(input.price),
    original_price: set(input.originalPrice),
    ...(input.lifetime !== undefined || input.durationDays !== undefined
      ? { duration_days: lifetime ? null : days }
      : {}),
    bonus_coins: set(input.bonusCoins),
    ios_product_id: set(input.iosProductId),
    android_product_id: set(input.androidProductId),
    sort: set(input.sort),
    on_sale: input.onSale === undefined ? undefined : input.onSale ? 1 : 0,
    badge: set(input.badge),
  };
}

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

function filteredPlans(db: Db, input: InputOf<'/api/plan/fetch/page'> & { apps: AppScope }) {
  let filtered = db.selectFrom('plans');
  if (input.apps) filtered = filtered.where(inScope('plans.app', input.apps));
  if (input.onSale !== undefined) filtered = filtered.where('on_sale', '=', input.onSale ? 1 : 0);
  return filtered;
}

const planList = pagedRoute('/api/plan/fetch/page', {
  rows: (input, ctx) => {
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    const column = ({ sort: 'sort', price: 'price', createdAt: 'created_at' } as const)[input.sort];
    return filteredPlans(ctx.db, scoped(ctx, input)).selectAll().orderBy(column, direction).orderBy('id', direction);
  },
  total: (input, ctx) => countedTotal(ctx.db, filteredPlans(ctx.db, scoped(ctx, input)), input.exactTotal),
  present: (rows) => rows.map(presentPlan),
});

export default defineRoutes({
  '/api/plan/make': {
    transaction: true,
    message: '会员套餐已创建',
    handler: async (input, ctx) => {
      const now = Date.now();
      columnsOf(input);
      const { id } = await ctx.db
        .insertInto('plans')
        .values({
          app: input.app,
          name: input.name,
          description: input.description,
          price: input.price,
          original_price: input.originalPrice,
          duration_days: input.lifetime ? null : input.durationDays,
          bonus_coins: input.bonusCoins,
          ios_product_id: input.iosProductId,
          android_product_id: input.androidProductId,
          sort: input.sort,
          on_sale: input.onSale ? 1 : 0,
          badge: input.badge,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const plan = presentPlan(await loadPlan(ctx.db, id));
      await ctx.audit({ targetId: id, after: plan });
      return { plan };
    },
  },

  '/api/plan/update': {
    transaction: true,
    message: '会员套餐已保存，已有订单不受影响',
    handler: async (input, ctx) => {
      const { id, ...changes } = input;
      const fields = Object.keys(changes).filter((k) => changes[k as keyof PlanChanges] !== undefined);
      if (fields.length === 0) throw fail.badInput('请至少修改一项');
      const current = await loadPlan(ctx.db, id);
      await mustReach(ctx, current.app);
      await ctx.db
        .updateTable('plans')
        .set({ ...defined(columnsOf(changes, current)), updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
      const before = presentPlan(current);
      const after = presentPlan(await loadPlan(ctx.db, id));
      const shown = fields.map((f) => (f === 'lifetime' ? 'durationDays' : f)) as (keyof Plan)[];
      const pick = (p: Plan) => Object.fromEntries(shown.map((f) => [f, p[f]]));
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      return { plan: after };
    },
  },

  '/api/plan/fetch/page': planList,
  '/api/plan/export': listExport(planList, (ctx) => ({
    filename: '会员套餐',
    columns: [
      { header: 'ID', width: 10, cell: (p) => p.id },
      { header: '应用', width: 12, cell: (p) => ctx.apps.nameOf(p.app) },
      { header: '名称', width: 20, cell: (p) => p.name },
      { header: '价格（分）', width: 10, cell: (p) => p.price },
      { header: '原价（分）', width: 10, cell: (p) => p.originalPrice },
      { header: '天数', width: 8, cell: (p) => p.durationDays ?? '永久' },
      { header: '赠送金币', width: 10, cell: (p) => p.bonusCoins },
      { header: '角标', width: 10, cell: (p) => p.badge },
      { header: '排序', width: 8, cell: (p) => p.sort },
      { header: '上架', width: 8, cell: (p) => yesNo(p.onSale) },
      { header: '创建时间', width: 18, cell: (p) => shanghaiTime(p.createdAt) },
    ],
  })),

  '/api/plan/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadPlan(ctx.db, input.id);
      mustSee(ctx, row.app, '会员套餐不存在');
      return { plan: presentPlan(row) };
    },
  },

  '/api/plan/fetch/onsale': {
    handler: async (input, ctx) => {
      let query = ctx.db.selectFrom('plans').selectAll().where('app', '=', input.app).where('on_sale', '=', 1);
      // The App Store sells digital goods only through in-app purchase.
      if (input.platform === 'ios') query = query.where('ios_product_id', '!=', '');
      const rows = await query.orderBy('sort').orderBy('id').limit(100).execute();
      return {
        list: rows.map((r) => {
          const p = presentPlan(r);
          return {
            id: p.id,
            name: p.name,
            description: p.description,
            price: p.price,
            originalPrice: p.originalPrice,
            durationDays: p.durationDays,
            bonusCoins: p.bonusCoins,
            badge: p.badge,
            productId: input.platform === 'ios' ? p.iosProductId : p.androidProductId,
          };
        }),
      };
    },
  },
});
