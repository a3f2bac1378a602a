import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Product = { id: number; productId: string; price: number; vipDays: number; coins: number; enabled: boolean };
const make = (body: Record<string, unknown>) =>
  server.call(
    '/api/iap/make',
    { platform: 'ios', type: 'consumable', name: '金币包', price: 600, coins: 60, ...body },
    admin,
  );

describe('IAP products', () => {
  it('are made per app and platform with a unique product id, and must grant something', async () => {
    const first = await make({ productId: 'com.example.coins.60' });
    expect(first.body.code).toBe(200);
    const product = (first.body.data as { product: Product }).product;
    expect(product).toMatchObject({ price: 600, coins: 60, vipDays: 0, enabled: true });

    const again = await make({ productId: 'com.example.coins.60' });
    expect(again.body).toMatchObject({ code: 409, message: '该应用在这个平台上已有相同商品 ID 的内购商品' });
    // The same id on the other platform is another product.
    expect((await make({ productId: 'com.example.coins.60', platform: 'android' })).body.code).toBe(200);

    const nothing = await make({ productId: 'com.example.nothing', coins: 0 });
    expect(nothing.body).toMatchObject({ code: 400, message: '请至少设置会员天数或金币之一' });

    const updated = await server.call('/api/iap/update', { id: product.id, price: 800, enabled: false }, admin);
    expect(updated.body.data).toMatchObject({ product: { price: 800, enabled: false } });
    const emptied = await server.call('/api/iap/update', { id: product.id, coins: 0 }, admin);
    expect(emptied.body.code).toBe(400);

    const page = await server.call('/api/iap/fetch/page', { platform: 'ios', enabled: false }, admin);
    const list = (page.body.data as { list: Product[] }).list;
    expect(list.map((p) => p.id)).toContain(product.id);
    expect(list.every((p) => !p.enabled)).toBe(true);
  });

  it('refuse prices that are not whole fen in range', async () => {
    for (const price of [-1, 0, 0.5, '100', 1e308, 2 ** 53]) {
      const answer = await make({ productId: `com.example.p${String(price).length}`, price });
      expect(answer.body.code, String(price)).toBe(400);
    }
  });
});
