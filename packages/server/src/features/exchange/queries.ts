import { randomInt } from 'node:crypto';
import type { ExchangeItem, exchangeEndpoints, myExchange } from '@appdesk/contract/endpoints/exchange';
import type { ExchangeRecord } from '@appdesk/contract/endpoints/exchangerecord';
import { maskPhone } from '@appdesk/contract/format';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { iso, isoOrNull } from '../../db/paging';
import { fail } from '../../http/errors';
import type { ExchangeItemsTable, ExchangeRecordsTable } from './tables';

type ItemRow = Selectable<ExchangeItemsTable>;
type RecordRow = Selectable<ExchangeRecordsTable>;
type NewItem = z.output<(typeof exchangeEndpoints)['/api/exchange/item/make']['input']>;

const msOrNull = (value: string | null | undefined) => (value ? Date.parse(value) : null);
const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

export function presentItem(r: ItemRow): ExchangeItem {
  return {
    id: r.id,
    app: r.app,
    name: r.name,
    image: r.image,
    description: r.description,
    kind: r.kind as ExchangeItem['kind'],
    value: Number(r.value),
    costCoins: Number(r.cost_coins),
    stock: numberOrNull(r.stock),
    perUserLimit: r.per_user_limit,
    startsAt: isoOrNull(numberOrNull(r.starts_at)),
    endsAt: isoOrNull(numberOrNull(r.ends_at)),
    sort: r.sort,
    enabled: r.enabled === 1,
    createdAt: iso(Number(r.created_at)),
    updatedAt: iso(Number(r.updated_at)),
  };
}

export function presentMine(r: RecordRow): z.infer<typeof myExchange> {
  return {
    recordNo: r.record_no,
    app: r.app,
    itemId: r.item_id,
    itemName: r.item_name,
    kind: r.kind as ExchangeItem['kind'],
    value: Number(r.value),
    cost: Number(r.cost),
    status: r.status as 'done',
    code: r.code,
    carrier: r.carrier,
    trackingNo: r.tracking_no,
    createdAt: iso(Number(r.created_at)),
    shippedAt: isoOrNull(numberOrNull(r.shipped_at)),
  };
}

export async function loadItem(db: Db, id: number): Promise<ItemRow> {
  const row = await db.selectFrom('exchange_items').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('兑换商品不存在');
  return row;
}

/**
 * The columns of an item's fields, checked together: what a kind needs, and a window that ends
 * after it starts. `current` is the stored item when only some fields change.
 */
export function itemColumns(input: Partial<NewItem>, current?: ItemRow) {
  const kind = input.kind ?? current?.kind;
  const value = input.value ?? (current ? Number(current.value) : 0);
  if ((kind === 'vip_days' || kind === 'coins') && value < 1) {
    throw fail.badInput(
      kind === 'vip_days' ? '请填写发放的会员天数（至少 1 天）' : '请填写发放的金币数量（至少 1 个）',
    );
  }
  if (kind === 'vip_days' && value > 36_500) throw fail.badInput('会员天数最多 36,500 天');
  if (kind === 'code' && current && input.stock !== undefined) {
    throw fail.badInput('兑换码商品的库存由导入的兑换码决定，不能直接修改');
  }
  const startsAt = input.startsAt !== undefined ? msOrNull(input.startsAt) : numberOrNull(current?.starts_at ?? null);
  const endsAt = input.endsAt !== undefined ? msOrNull(input.endsAt) : numberOrNull(current?.ends_at ?? null);
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) throw fail.badInput('结束时间必须晚于开始时间');
  const physicalOrCode = kind === 'physical' || kind === 'code';
  return {
    app: input.app,
    name: input.name,
    image: input.image,
    description: input.description,
    ...(input.kind !== undefined ? { kind: input.kind } : {}),
    ...(input.value !== undefined || input.kind !== undefined ? { value: physicalOrCode ? 0 : value } : {}),
    cost_coins: input.costCoins,
    ...(input.stock !== undefined ? { stock: kind === 'code' ? 0 : input.stock } : {}),
    per_user_limit: input.perUserLimit,
    ...(input.startsAt !== undefined ? { starts_at: startsAt } : {}),
    ...(input.endsAt !== undefined ? { ends_at: endsAt } : {}),
    sort: input.sort,
    enabled: input.enabled === undefined ? undefined : input.enabled ? 1 : 0,
  };
}

/** Refuses a redemption of an item that is not on offer now, saying why in the user's words. */
export function refuseUnavailable(item: ItemRow, now: number): void {
  if (item.enabled !== 1) throw fail.conflict('该商品已下架');
  if (item.starts_at !== null && now < Number(item.starts_at)) throw fail.conflict('该商品尚未开始兑换');
  if (item.ends_at !== null && now >= Number(item.ends_at)) throw fail.conflict('该商品的兑换已结束');
}

/**
 * 27 characters: E, Shanghai time to the second and 12 random digits, so that even at thousands of
 * redemptions a second two never draw the same number (the unique index would refuse the second).
 */
export function newRecordNo(now: number): string {
  const wall = new Date(now + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `E${wall}${String(randomInt(0, 1_000_000_000_000)).padStart(12, '0')}`;
}

/**
 * A record as operators see it: phones masked, unless `receiverPhone` is 'whole' (the warehouse's
 * export, which needs the number to deliver); the user's own account phone is masked either way.
 */
export function presentRecord(
  r: RecordRow & { phone: string },
  { receiverPhone = 'masked' }: { receiverPhone?: 'masked' | 'whole' } = {},
): ExchangeRecord {
  const receiver = r.receiver_phone && receiverPhone === 'masked' ? maskPhone(r.receiver_phone) : r.receiver_phone;
  return {
    ...presentMine(r),
    id: r.id,
    userId: r.user_id,
    userPhone: maskPhone(r.phone),
    receiverName: r.receiver_name,
    receiverPhone: receiver,
    address: r.address,
    note: r.note,
    cancelledAt: isoOrNull(numberOrNull(r.cancelled_at)),
  };
}

/** Records with their user's phone. */
export const recordsWithUsers = (db: Db) =>
  db
    .selectFrom('exchange_records')
    .innerJoin('users', 'users.id', 'exchange_records.user_id')
    .selectAll('exchange_records')
    .select('users.phone');

export async function loadRecord(db: Db, id: number) {
  const row = await recordsWithUsers(db).where('exchange_records.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('兑换记录不存在');
  return row;
}

export const recordStatusLabel: Record<string, string> = {
  done: '已完成',
  waiting: '待发货',
  shipped: '已发货',
  cancelled: '已取消',
};
