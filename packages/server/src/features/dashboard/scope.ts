import type { chartFigures } from './charts';
import { TOP_ITEMS } from './charts';
import type { cardFigures } from './queries';

/**
 * 全部应用 for an operator limited to some apps: the sum of their apps' figures, each app's computed
 * (and kept) as when that app is chosen, so the sum is what the apps' own dashboards add up to. An
 * operator of every app reads the counters kept for all apps instead (no sum). Coins are the
 * company's: their cards show the company's figure to every operator (flagged companyWide).
 */

type Cards = Awaited<ReturnType<typeof cardFigures>>;
type Card = Cards[keyof Cards];
type Charts = Awaited<ReturnType<typeof chartFigures>>;

function sumCard(cards: Card[]): Card {
  // Coins are company-wide: every app's card holds the same company figure.
  if ('companyWide' in cards[0] && cards[0].companyWide) return cards[0];
  const previous = cards.some((c) => c.previous === null) ? null : cards.reduce((sum, c) => sum + (c.previous ?? 0), 0);
  return { value: cards.reduce((sum, c) => sum + c.value, 0), previous };
}

/** The cards of several apps (at least one), added up card by card. */
export function sumCards(perApp: Cards[]): Cards {
  const keys = Object.keys(perApp[0]) as (keyof Cards)[];
  return Object.fromEntries(keys.map((key) => [key, sumCard(perApp.map((cards) => cards[key]))])) as Cards;
}

/**
 * The charts of several apps added up: series by bucket label (answers kept at different moments
 * may end at different hours), channels by channel, and the most redeemed items (each item is one
 * app's, so the top ten of the apps' top tens are the top ten of all).
 */
export function sumCharts(perApp: Charts[]): Charts {
  const newest = perApp.reduce((a, b) => (b.labels.length > a.labels.length ? b : a));
  const at = new Map(newest.labels.map((label, i) => [label, i]));
  const series = Object.fromEntries(
    (Object.keys(newest.series) as (keyof Charts['series'])[]).map((name) => {
      const sum = new Array<number>(newest.labels.length).fill(0);
      for (const charts of perApp)
        charts.series[name].forEach((value, i) => {
          const index = at.get(charts.labels[i]);
          if (index !== undefined) sum[index] += value;
        });
      return [name, sum];
    }),
  ) as Charts['series'];
  const channels = new Map<string, { channel: string; users: number; revenue: number }>();
  for (const row of perApp.flatMap((charts) => charts.byChannel)) {
    const found = channels.get(row.channel) ?? { channel: row.channel, users: 0, revenue: 0 };
    found.users += row.users;
    found.revenue += row.revenue;
    channels.set(row.channel, found);
  }
  const topItems = perApp
    .flatMap((charts) => charts.topItems)
    .sort((a, b) => b.count - a.count || b.itemId - a.itemId)
    .slice(0, TOP_ITEMS);
  return {
    ...newest,
    series,
    byChannel: [...channels.values()].sort((x, y) => y.users - x.users || y.revenue - x.revenue),
    topItems,
  };
}
