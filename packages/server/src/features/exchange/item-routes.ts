import { exchangeItem } from '@appdesk/contract/endpoints/exchange';
import { sql } from 'kysely';
import type { Db } from '../../db/index';
import { countedTotal, shanghaiTime } from '../../db/paging';
import { type AppScope, inScope, mustReach, mustSee, scoped } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { type InputOf, listExport, pagedRoute, wordsOf, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { parseCodes } from './codes';
import { itemColumns, loadItem, presentItem } from './queries';

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** 兑换商品: operators set up what the coin shop offers and import the codes of code items. */
const kindWord = wordsOf(exchangeItem.shape.kind);

function filteredItems(db: Db, input: InputOf<'/api/exchange/item/fetch/page'> & { apps: AppScope }) {
  let filtered = db.selectFrom('exchange_items');
  if (input.apps) filtered = filtered.where(inScope('exchange_items.app', input.apps));
  if (input.kind) filtered = filtered.where('kind', '=', input.kind);
  if (input.enabled !== undefined) filtered = filtered.where('enabled', '=', input.enabled ? 1 : 0);
  return filtered;
}

const itemList = pagedRoute('/api/exchange/item/fetch/page', {
  rows: (input, ctx) => {
    const direction = input.order === 'ascend' ? 'asc' : 'desc';
    const column = ({ sort: 'sort', costCoins: 'cost_coins', createdAt: 'created_at' } as const)[input.sort];
    return filteredItems(ctx.db, scoped(ctx, input))
      .selectAll()
      .select(
        sql<number>`(select count(*) from exchange_records r where r.item_id = exchange_items.id and r.status <> 'cancelled')`.as(
          'redeemed',
        ),
      )
      .orderBy(column, direction)
      .orderBy('id', direction);
  },
  total: (input, ctx) => countedTotal(ctx.db, filteredItems(ctx.db, scoped(ctx, input)), input.exactTotal),
  present: (rows) => rows.map((r) => ({ ...presentItem(r), redeemed: Number(r.redeemed) })),
});

export default defineRoutes({
  '/api/exchange/item/make': {
    transaction: true,
    message: '兑换商品已创建',
    handler: async (input, ctx) => {
      const now = Date.now();
      const columns = itemColumns(input);
      const { id } = await ctx.db
        .insertInto('exchange_items')
        .values({
          app: input.app,
          name: input.name,
          image: input.image,
          description: input.description,
          kind: input.kind,
          value: columns.value ?? 0,
          cost_coins: input.costCoins,
          stock: input.kind === 'code' ? 0 : input.stock,
          per_user_limit: input.perUserLimit,
          starts_at: columns.starts_at ?? null,
          ends_at: columns.ends_at ?? null,
          sort: input.sort,
          enabled: input.enabled ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const item = presentItem(await loadItem(ctx.db, id));
      await ctx.audit({ targetId: id, after: item });
      return { item };
    },
  },

  '/api/exchange/item/update': {
    transaction: true,
    message: '兑换商品已保存',
    handler: async (input, ctx) => {
      const { id, ...changes } = input;
      const fields = Object.keys(defined(changes)) as (keyof typeof changes)[];
      if (fields.length === 0) throw fail.badInput('请至少修改一项');
      const current = await loadItem(ctx.db, id);
      await mustReach(ctx, current.app);
      const old = ctx.releaseFile;
      await ctx.db
        .updateTable('exchange_items')
        .set({ ...defined(itemColumns(changes, current)), updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
      if (changes.image !== undefined && changes.image !== current.image) old(current.image);
      const before = presentItem(current);
      const after = presentItem(await loadItem(ctx.db, id));
      const pick = (item: typeof after) => Object.fromEntries(fields.map((f) => [f, item[f]]));
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      return { item: after };
    },
  },

  '/api/exchange/item/copy': {
    transaction: true,
    message: '已复制为新商品（未上架），请检查后上架',
    handler: async (input, ctx) => {
      const source = await loadItem(ctx.db, input.id);
      await mustReach(ctx, source.app);
      const kind = input.kind ?? source.kind;
      const grants = kind === 'vip_days' || kind === 'coins';
      const now = Date.now();
      const { id: _id, ...columns } = source;
      const { id } = await ctx.db
        .insertInto('exchange_items')
        .values({
          ...columns,
          name: `${source.name}（副本）`.slice(0, 30),
          kind,
          value: grants ? Math.max(1, Number(source.value)) : 0,
          stock: kind === 'code' ? 0 : source.kind === 'code' ? null : source.stock,
          enabled: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const item = presentItem(await loadItem(ctx.db, id));
      await ctx.audit({ targetId: id, before: { copiedFrom: input.id }, after: item });
      return { item };
    },
  },

  '/api/exchange/item/fetch/page': itemList,
  '/api/exchange/item/export': listExport(itemList, (ctx) => ({
    filename: '兑换商品',
    columns: [
      { header: 'ID', width: 10, cell: (i) => i.id },
      { header: '应用', width: 12, cell: (i) => ctx.apps.nameOf(i.app) },
      { header: '名称', width: 24, cell: (i) => i.name },
      { header: '类型', width: 10, cell: (i) => kindWord(i.kind) },
      { header: '面值', width: 8, cell: (i) => i.value },
      { header: '所需金币', width: 10, cell: (i) => i.costCoins },
      { header: '库存', width: 8, cell: (i) => i.stock ?? '不限' },
      { header: '每人限兑', width: 8, cell: (i) => i.perUserLimit || '不限' },
      { header: '已兑换', width: 8, cell: (i) => i.redeemed },
      { header: '开始时间', width: 18, cell: (i) => shanghaiTime(i.startsAt) },
      { header: '结束时间', width: 18, cell: (i) => shanghaiTime(i.endsAt) },
      { header: '排序', width: 8, cell: (i) => i.sort },
      { header: '上架', width: 8, cell: (i) => yesNo(i.enabled) },
      { header: '创建时间', width: 18, cell: (i) => shanghaiTime(i.createdAt) },
    ],
  })),

  '/api/exchange/item/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadItem(ctx.db, input.id);
      mustSee(ctx, row.app, '兑换商品不存在');
      const item = presentItem(row);
      const counts = await ctx.db
        .selectFrom('exchange_codes')
        .select((eb) => [eb.fn.countAll<string>().as('total'), eb.fn.count<string>('record_id').as('used')])
        .where('item_id', '=', input.id)
        .executeTakeFirstOrThrow();
      return { item, codes: { total: Number(counts.total), used: Number(counts.used) } };
    },
  },

  '/api/exchange/code/import': {
    transaction: true,
    message: '兑换码已导入',
    handler: async (input, ctx) => {
      const item = await loadItem(ctx.db, input.itemId);
      await mustReach(ctx, item.app);
      if (item.kind !== 'code') throw fail.conflict('只有“兑换码”类型的商品可以导入兑换码');
      const codes = await parseCodes(input);
      const now = Date.now();
      let added = 0;
      for (let i = 0; i < codes.length; i += 500) {
        const inserted = await ctx.db
          .insertInto('exchange_codes')
          .values(codes.slice(i, i + 500).map((code) => ({ item_id: item.id, code, created_at: now })))
          .onConflict((oc) => oc.columns(['item_id', 'code']).doNothing())
          .returning('id')
          .execute();
        added += inserted.length;
      }
      const updated = await ctx.db
        .updateTable('exchange_items')
        .set((eb) => ({ stock: eb(eb.fn.coalesce('stock', sql<number>`0`), '+', added), updated_at: now }))
        .where('id', '=', item.id)
        .returning('stock')
        .executeTakeFirstOrThrow();
      const stock = Number(updated.stock);
      await ctx.audit({ targetId: item.id, after: { added, skipped: codes.length - added, stock } });
      return { added, skipped: codes.length - added, stock };
    },
  },
});
