import type { DashboardRange } from '@appdesk/contract/constants';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { DAY_MS, dayOf, firstDayOfMonth, HOUR_MS, hourOf, metricOf, monthOfDay, SHANGHAI_OFFSET_MS } from './counters';

type Db = Kysely<Database>;
const num = (v: unknown) => Number(v ?? 0);

/**
 * The buckets of a date range preset (docs/spec-notes.md#9-presentation-and-timings) up to `now`, in Shanghai time: today by
 * hour; this week (Monday first), this month and this year by day.
 */
export function rangeBuckets(range: DashboardRange, now: number) {
  const today = dayOf(now);
  if (range === 'today') {
    const first = hourOf(today * DAY_MS - SHANGHAI_OFFSET_MS);
    return { unit: 'hour' as const, first, last: hourOf(now), days: [today, today] as const };
  }
  const date = new Date(today * DAY_MS); // midnight UTC of the Shanghai date: its UTC fields are Shanghai's
  const first =
    range === 'week'
      ? today - ((date.getUTCDay() + 6) % 7)
      : range === 'month'
        ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS
        : Date.UTC(date.getUTCFullYear(), 0, 1) / DAY_MS;
  return { unit: 'day' as const, first, last: today, days: [first, today] as const };
}

/** A bucket's label: `HH:00` for hours, `YYYY-MM-DD` for days (both in Shanghai). */
function label(unit: 'hour' | 'day', bucket: number) {
  if (unit === 'day') return new Date(bucket * DAY_MS).toISOString().slice(0, 10);
  const hour = Math.floor(((bucket * HOUR_MS + SHANGHAI_OFFSET_MS) % DAY_MS) / HOUR_MS);
  return `${String(hour).padStart(2, '0')}:00`;
}

/** Per-bucket sums of a counter over [first, last], zero where nothing happened. */
async function series(db: Db, metric: string, first: number, last: number) {
  const rows = await db
    .selectFrom('stat_counts')
    .select((eb) => ['bucket', eb.fn.sum<number>('value').as('v')])
    .where('metric', '=', metric)
    .where('bucket', '>=', first)
    .where('bucket', '<=', last)
    .groupBy('bucket')
    .execute();
  const out = new Array<number>(last - first + 1).fill(0);
  for (const r of rows) out[num(r.bucket) - first] = num(r.v);
  return out;
}

async function sumsByDim(db: Db, metric: string, first: number, last: number) {
  return db
    .selectFrom('stat_counts')
    .select((eb) => ['dim', eb.fn.sum<number>('value').as('v')])
    .where('metric', '=', metric)
    .where('bucket', '>=', first)
    .where('bucket', '<=', last)
    .groupBy('dim')
    .execute();
}

/**
 * Sums per breakdown (channel, item) over the days [first, last], largest first; ties by `tie`
 * (channels by code, items newest first: ids compared as numbers, not as text). Whole months
 * come from the monthly counter (`<base>.m<x>`), the other days from the daily one (`<base>.d<x>`),
 * so a year reads at most eleven months and one month's days.
 */
const byCode = (a: string, b: string) => a.localeCompare(b);
const newestFirst = (a: string, b: string) => Number(b) - Number(a);

async function breakdown(
  db: Db,
  base: string,
  suffix: string,
  first: number,
  last: number,
  tie: (a: string, b: string) => number,
  limit: number | undefined,
  app: string | undefined,
) {
  const lastMonth = monthOfDay(last);
  const wholeMonths = first === firstDayOfMonth(monthOfDay(first)) && monthOfDay(first) < lastMonth;
  const parts = await Promise.all(
    wholeMonths
      ? [
          sumsByDim(db, metricOf(`${base}.m${suffix}`, app), monthOfDay(first), lastMonth - 1),
          sumsByDim(db, metricOf(`${base}.d${suffix}`, app), firstDayOfMonth(lastMonth), last),
        ]
      : [sumsByDim(db, metricOf(`${base}.d${suffix}`, app), first, last)],
  );
  const sums = new Map<string, number>();
  for (const rows of parts) for (const r of rows) sums.set(r.dim, (sums.get(r.dim) ?? 0) + num(r.v));
  const sorted = [...sums.entries()]
    .filter(([, value]) => value !== 0)
    .sort((a, b) => b[1] - a[1] || tie(a[0], b[0]))
    .map(([dim, value]) => ({ dim, value }));
  return limit ? sorted.slice(0, limit) : sorted;
}

export const TOP_ITEMS = 10;

/** The dashboard's charts for a range (one app's, or all apps'): every figure from the counters (bounded by buckets, not rows). */
export async function chartFigures(db: Db, range: DashboardRange, now: number, app?: string) {
  const b = rangeBuckets(range, now);
  const grain = b.unit === 'hour' ? 'h' : 'd';
  const [first, last] = b.days;
  const [signups, active, orders, revenue, usersByChannel, revenueByChannel, items] = await Promise.all([
    series(db, metricOf(`signups.${grain}`, app), b.first, b.last),
    series(db, metricOf(`active.${grain}`, app), b.first, b.last),
    series(db, metricOf(`orders.${grain}`, app), b.first, b.last),
    series(db, metricOf(`revenue.${grain}`, app), b.first, b.last),
    breakdown(db, 'signups', 'c', first, last, byCode, undefined, app),
    breakdown(db, 'revenue', 'c', first, last, byCode, undefined, app),
    breakdown(db, 'exchanges', 'i', first, last, newestFirst, TOP_ITEMS, app),
  ]);
  const channels = new Map<string, { channel: string; users: number; revenue: number }>();
  const entry = (channel: string) => {
    const found = channels.get(channel) ?? { channel, users: 0, revenue: 0 };
    channels.set(channel, found);
    return found;
  };
  for (const r of usersByChannel) entry(r.dim).users = r.value;
  for (const r of revenueByChannel) entry(r.dim).revenue = r.value;
  const ids = items.map((r) => Number(r.dim)).filter((id) => Number.isSafeInteger(id));
  const names =
    ids.length === 0
      ? []
      : await db.selectFrom('exchange_items').select(['id', 'name']).where('id', 'in', ids).execute();
  const labels = Array.from({ length: b.last - b.first + 1 }, (_, i) => label(b.unit, b.first + i));
  return {
    range,
    unit: b.unit,
    labels,
    series: { signups, active, orders, revenue },
    byChannel: [...channels.values()].sort((x, y) => y.users - x.users || y.revenue - x.revenue),
    topItems: items.map((r) => ({
      itemId: Number(r.dim),
      name: names.find((i) => i.id === Number(r.dim))?.name ?? `已删除的商品 #${r.dim}`,
      count: r.value,
    })),
  };
}
