/**
 * Data scope by app in the figures (docs/permissions.md): the dashboard's cards and charts and the
 * header bell of an operator limited to 名言 count 名言 alone; 全部应用 of an operator limited to
 * several apps is the sum of theirs; and an operator of every app pays nothing for the scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorGrants } from '../src/core/grants';
import { sendMessage } from '../src/core/messages';
import { filteredOrders } from '../src/features/order/queries';
import { filteredUsers, usersInScope } from '../src/features/users/list';
import { appScope } from '../src/http/app-scope';
import { startServer, type TestServer } from './harness';
import { addOperator } from './operators';
import { ok, type ScopeWorld, scopeWorld } from './scope-world';

let server: TestServer;
let world: ScopeWorld;
/** Every permission, in both apps named one by one (not "every app"). */
let bothApps: string;
beforeAll(async () => {
  server = await startServer();
  world = await scopeWorld(server);
  bothApps = await addOperator(server, {
    permissions: ['dashboard.read', 'feedback.read', 'feedbackv2.read'],
    apps: ['tailor', 'quote'],
  });
});
afterAll(async () => {
  await server.close();
});

type Card = { value: number; previous: number | null; companyWide?: boolean };
type Cards = Record<string, Card>;
const cards = async (token: string, app?: string) =>
  (await ok<{ cards: Cards }>(server, '/api/dashboard/fetch/cards', { app, refresh: true }, token)).cards;
const values = (figures: Cards) => Object.fromEntries(Object.entries(figures).map(([k, c]) => [k, c.value]));

describe('the dashboard', () => {
  it('全部应用 of the 名言 operator is 名言’s figures', async () => {
    const mine = await cards(world.quoteOperator.token);
    expect(values(mine)).toEqual(values(await cards(world.admin, 'quote')));
    expect(mine).toMatchObject({
      feedbackPending: { value: 1 },
      reviewRewardsPending: { value: 1 },
      exchangesWaiting: { value: 1 },
      revenueToday: { value: 9800 },
    });
    const asked = await server.call('/api/dashboard/fetch/cards', { app: 'tailor' }, world.quoteOperator.token);
    expect(asked.body.code).toBe(403);
  });

  it('全部应用 of an operator of several apps is the sum of theirs; coins stay the company’s', async () => {
    const summed = await cards(bothApps);
    const all = await cards(world.admin);
    const [tailor, quote] = [await cards(world.admin, 'tailor'), await cards(world.admin, 'quote')];
    for (const [name, card] of Object.entries(summed)) {
      if (card.companyWide) {
        expect(card.value, name).toBe(all[name].value);
        continue;
      }
      expect(card.value, name).toBe(tailor[name].value + quote[name].value);
      // With two apps registered, theirs are all there is.
      expect(card.value, name).toBe(all[name].value);
    }
    expect(summed.feedbackPending.value).toBe(2);
  });

  it('the charts add up the same way', async () => {
    type Charts = { series: Record<string, number[]>; byChannel: { channel: string; revenue: number }[] };
    const charts = (token: string, app?: string) =>
      ok<Charts>(server, '/api/dashboard/fetch/charts', { range: 'today', app, refresh: true }, token);
    const sum = (figures: number[]) => figures.reduce((a, b) => a + b, 0);
    const mine = await charts(world.quoteOperator.token);
    expect(sum(mine.series.revenue)).toBe(9800);
    expect(mine.series).toEqual((await charts(world.admin, 'quote')).series);
    const summed = await charts(bothApps);
    expect(sum(summed.series.revenue)).toBe(19_600);
    expect(summed.series).toEqual((await charts(world.admin)).series);
    expect(summed.byChannel.find((c) => c.channel === 'huawei')?.revenue).toBe(19_600);
  });
});

describe('the header bell', () => {
  type Notice = { id: string; count: number };
  const notices = (token: string) => ok<Notice[]>(server, '/api/notices/fetch', {}, token);

  it('tells the 名言 operator of 名言’s to-dos, threads and messages only', async () => {
    const operator = world.quoteOperator;
    for (const app of ['tailor', 'quote']) {
      const message = { app, userId: operator.id, title: `${app} 通知`, content: '内容', authorId: null };
      await sendMessage(server.app.services.db, message);
    }
    const mine = await notices(operator.token);
    const todo = (list: Notice[], id: string) => list.find((n) => n.id === id)?.count;
    expect(todo(mine, 'todo-feedbackPending')).toBe(1);
    expect(todo(mine, 'todo-exchangesWaiting')).toBe(1);
    const ids = mine.map((n) => n.id);
    expect(ids).toContain(`feedback-thread-${world.records.quote.thread}`);
    expect(ids).not.toContain(`feedback-thread-${world.records.tailor.thread}`);
    const messages = mine.filter((n) => n.id.startsWith('message-'));
    expect(messages).toHaveLength(1);
    const all = await notices(world.admin);
    expect(todo(all, 'todo-feedbackPending')).toBe(2);
    expect(all.map((n) => n.id)).toContain(`feedback-thread-${world.records.tailor.thread}`);
  });
});

describe('what the scope costs an operator of every app', () => {
  const grants = (apps: string[] | null): { grants: OperatorGrants } => ({
    grants: { permissions: new Set(), apps, superAdmin: false, requireTotp: false },
  });

  it('nothing: no condition, the same statements', () => {
    const db = server.app.services.db;
    const dialect = server.app.services.dialect;
    expect(appScope(grants(null))).toBeUndefined();
    expect(appScope({ grants: null })).toBeUndefined();
    const filter = { status: 'all' as const, search: '13800', sort: 'createdAt' as const };
    // The very same filter object: every indexed path of the users list is taken as before.
    expect(usersInScope(filter, appScope(grants(null)))).toBe(filter);
    const sqlOf = (f: Parameters<typeof filteredUsers>[2]) => filteredUsers(db, dialect, f).compile().sql;
    expect(sqlOf(usersInScope(filter, appScope(grants(null))))).toBe(sqlOf(filter));
    // One app: the segment the app switcher has always asked for.
    expect(sqlOf(usersInScope(filter, appScope(grants(['quote']))))).toBe(sqlOf({ ...filter, app: 'quote' }));
    const orders = filteredOrders(db, { apps: appScope(grants(null)) })
      .selectAll()
      .compile().sql;
    expect(orders).not.toMatch(/"app"/);
    const quoteOrders = filteredOrders(db, { apps: appScope(grants(['quote'])) })
      .selectAll()
      .compile();
    expect(quoteOrders.sql).toMatch(/"orders"\."app" = /);
  });
});
