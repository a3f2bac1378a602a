import type { IapProduct, iapEndpoints } from '@appdesk/contract/endpoints/iap';
import { iapProduct } from '@appdesk/contract/endpoints/iap';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { countedTotal, iso, shanghaiTime } from '../../db/paging';
import { type AppScope, inScope, mustReach, mustSee, scoped } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { type InputOf, listExport, pagedRoute, platformWord, wordsOf, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import type { IapProductsTable } from './tables';

type Row = Selectable<IapProductsTable>;
type Changes = Omit<z.output<(typeof iapEndpoints)['/api/iap/update']['input']>, 'id'>;

export function presentProduct(r: Row): IapProduct {
  return {
    id: r.id,
    app: r.app,
    platform: r.platform as IapProduct['platform'],
    productId: r.product_id,
    type: r.type as IapProduct['type'],
    name: r.name,
    price: Number(r.price),
    vipDays: r.vip_days,
    coins: Number(r.coins),
    enabled: r.enabled === 1,
    createdAt: iso(Number(r.created_at)),
    updatedAt: iso(Number(r.updated_at)),
  };
}

async function loadProduct(db: Db, id: number) {
  const row = await db.selectFrom('iap_products').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('内购商品不存在');
  return row;
}

/** A product must grant something, and its id is unique within its app and platform. */
async function check(
  db: Db,
  p: { app: string; platform: string; productId: string; vipDays: number; coins: number },
  id?: number,
) {
  if (p.vipDays === 0 && p.coins === 0) throw fail.badInput('请至少设置会员天数或金币之一');
  let same = db
    .selectFrom('iap_products')
    .select('id')
    .where('app', '=', p.app)
    .where('platform', '=', p.platform)
    .where('product_id', '=', p.productId);
  if (id !== undefined) same = same.where('id', '!=', id);
  if (await same.executeTakeFirst()) throw fail.conflict('该应用在这个平台上已有相同商品 ID 的内购商品');
}

const duplicate = (error: unknown) =>
  /unique|duplicate/i.test(String((error as Error)?.message))
    ? fail.conflict('该应用在这个平台上已有相同商品 ID 的内购商品')
    : error;

function columnsOf(c: Changes) {
  const entries = {
    app: c.app,
    platform: c.platform,
    product_id: c.productId,
    type: c.type,
    name: c.name,
    price: c.price,
    vip_days: c.vipDays,
    coins: c.coins,
    enabled: c.enabled === undefined ? undefined : c.enabled ? 1 : 0,
  };
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as Partial<typeof entries>;
}

const typeWord = wordsOf(iapProduct.shape.type);

function filteredProducts(db: Db, input: InputOf<'/api/iap/fetch/page'> & { apps: AppScope }) {
  let filtered = db.selectFrom('iap_products');
  if (input.apps) filtered = filtered.where(inScope('iap_products.app', input.apps));
  if (input.platform) filtered = filtered.where('platform', '=', input.platform);
  if (input.type) filtered = filtered.where('type', '=', input.type);
  if (input.enabled !== undefined) filtered = filtered.where('enabled', '=', input.enabled ? 1 : 0);
  return filtered;
}

const productList = pagedRoute('/api/iap/fetch/page', {
  rows: (input, ctx) => {
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    const column = input.sort === 'price' ? 'price' : 'created_at';
    return filteredProducts(ctx.db, scoped(ctx, input)).selectAll().orderBy(column, direction).orderBy('id', direction);
  },
  total: (input, ctx) => countedTotal(ctx.db, filteredProducts(ctx.db, scoped(ctx, input)), input.exactTotal),
  present: (rows) => rows.map(presentProduct),
});

export default defineRoutes({
  '/api/iap/make': {
    transaction: true,
    message: '内购商品已创建',
    handler: async (input, ctx) => {
      await check(ctx.db, input);
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('iap_products')
        .values({
          app: input.app,
          platform: input.platform,
          product_id: input.productId,
          type: input.type,
          name: input.name,
          price: input.price,
          vip_days: input.vipDays,
          coins: input.coins,
          enabled: input.enabled ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch((e) => Promise.reject(duplicate(e)));
      const product = presentProduct(await loadProduct(ctx.db, id));
      await ctx.audit({ targetId: id, after: product });
      return { product };
    },
  },

  '/api/iap/update': {
    transaction: true,
    message: '内购商品已保存',
    handler: async (input, ctx) => {
      const { id, ...changes } = input;
      const fields = Object.keys(changes).filter((k) => changes[k as keyof Changes] !== undefined);
      if (fields.length === 0) throw fail.badInput('请至少修改一项');
      const row = await loadProduct(ctx.db, id);
      await mustReach(ctx, row.app);
      const current = presentProduct(row);
      await check(ctx.db, { ...current, ...columnsOfInput(changes) }, id);
      await ctx.db
        .updateTable('iap_products')
        .set({ ...columnsOf(changes), updated_at: Date.now() })
        .where('id', '=', id)
        .execute()
        .catch((e) => Promise.reject(duplicate(e)));
      const after = presentProduct(await loadProduct(ctx.db, id));
      const pick = (p: IapProduct) => Object.fromEntries(fields.map((f) => [f, p[f as keyof IapProduct]]));
      await ctx.audit({ targetId: id, before: pick(current), after: pick(after) });
      return { product: after };
    },
  },

  '/api/iap/fetch/page': productList,
  '/api/iap/export': listExport(productList, (ctx) => ({
    filename: '内购商品',
    columns: [
      { header: 'ID', width: 10, cell: (p) => p.id },
      { header: '应用', width: 12, cell: (p) => ctx.apps.nameOf(p.app) },
      { header: '平台', width: 10, cell: (p) => platformWord(p.platform) },
      { header: '商品 ID', width: 30, cell: (p) => p.productId },
      { header: '类型', width: 12, cell: (p) => typeWord(p.type) },
      { header: '名称', width: 20, cell: (p) => p.name },
      { header: '价格（分）', width: 10, cell: (p) => p.price },
      { header: '会员天数', width: 10, cell: (p) => p.vipDays },
      { header: '金币', width: 8, cell: (p) => p.coins },
      { header: '启用', width: 8, cell: (p) => yesNo(p.enabled) },
      { header: '创建时间', width: 18, cell: (p) => shanghaiTime(p.createdAt) },
    ],
  })),

  '/api/iap/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadProduct(ctx.db, input.id);
      mustSee(ctx, row.app, '内购商品不存在');
      return { product: presentProduct(row) };
    },
  },
});

/** The defined changes, under the presented names. */
function columnsOfInput(c: Changes): Partial<IapProduct> {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as Partial<IapProduct>;
}
