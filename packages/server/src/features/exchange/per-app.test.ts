import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { changeCoins } from '../../core/ledger';
import { newUserRow } from '../../core/new-user';
import { createSession } from '../../core/sessions';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  await ok('/api/apps/make', { code: 'quote', name: '名言', androidPackage: 'com.appdesk.quote' });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Item = { id: number; app: string; name: string };

describe('exchange items per app', () => {
  it('each app’s shop offers and redeems only its own items; coins are one balance; the console filters by app', async () => {
    const tailorItem = (
      await ok<{ item: Item }>('/api/exchange/item/make', {
        name: '截屏贴纸',
        kind: 'coins',
        value: 5,
        costCoins: 10,
        enabled: true,
      })
    ).item;
    const quoteItem = (
      await ok<{ item: Item }>('/api/exchange/item/make', {
        app: 'quote',
        name: '名言书签',
        kind: 'coins',
        value: 5,
        costCoins: 20,
        enabled: true,
      })
    ).item;
    expect([tailorItem.app, quoteItem.app]).toEqual(['tailor', 'quote']);

    const shop = async (app?: string) =>
      (await ok<{ list: Item[] }>('/api/exchange/fetch/list', app ? { app } : {})).list.map((i) => i.id);
    expect(await shop('quote')).toEqual([quoteItem.id]);
    // An old client names no app: the first app's shop.
    expect(await shop()).toEqual([tailorItem.id]);
    expect(await shop('tailor')).toEqual([tailorItem.id]);

    const { id: userId } = await db()
      .insertInto('users')
      .values(newUserRow({ phone: '19900000291', password_hash: 'x', app: 'quote' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .transaction()
      .execute((trx) => changeCoins(trx, { userId, delta: 100, reason: 'admin', note: '测试' }));
    const token = await createSession(db(), userId, { ip: null, userAgent: null });
    // Another app's item does not exist for this app's call.
    const across = await server.call('/api/exchange/make', { app: 'tailor', itemId: quoteItem.id }, token);
    expect([across.body.code, across.body.message]).toEqual([404, '兑换商品不存在']);
    const { record, coins } = await ok<{ record: { app: string }; coins: number }>(
      '/api/exchange/make',
      { app: 'quote', itemId: quoteItem.id },
      token,
    );
    expect([record.app, coins]).toEqual(['quote', 85]);
    // The same coins pay in the other app's shop (company-wide).
    expect((await ok<{ coins: number }>('/api/exchange/make', { itemId: tailorItem.id }, token)).coins).toBe(80);
    const mine = async (app: string) =>
      (await ok<{ list: { app: string }[] }>('/api/exchange/fetch/mine', { app, page: 0, size: 10 }, token)).list;
    expect((await mine('quote')).map((r) => r.app)).toEqual(['quote']);
    expect((await mine('tailor')).map((r) => r.app)).toEqual(['tailor']);

    const page = async (path: string, filter: object) =>
      (await ok<{ list: { app: string }[] }>(path, { page: 0, size: 50, ...filter })).list.map((r) => r.app);
    expect(await page('/api/exchange/item/fetch/page', { app: 'quote' })).toEqual(['quote']);
    expect((await page('/api/exchange/item/fetch/page', {})).sort()).toEqual(['quote', 'tailor']);
    expect(await page('/api/exchange/record/fetch/page', { app: 'quote' })).toEqual(['quote']);
    expect(await page('/api/exchange/record/fetch/page', { app: 'tailor' })).toEqual(['tailor']);
    // An unknown app is refused by name.
    const unknown = await server.call('/api/exchange/item/fetch/page', { page: 0, size: 10, app: 'nosuch' }, admin);
    expect([unknown.body.code, unknown.body.message]).toEqual([400, '未知的应用：nosuch']);
  });
});
