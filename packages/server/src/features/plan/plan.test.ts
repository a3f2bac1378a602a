import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Plan = { id: number; price: number; durationDays: number | null; onSale: boolean; name: string };
const admin = async <T>(path: string, body: unknown) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const make = (body: Record<string, unknown>) =>
  admin<{ plan: Plan }>('/api/plan/make', { name: '月度会员', price: 1800, ...body }).then((d) => d.plan);

describe('VIP plans', () => {
  it('keep money as integer fen and refuse amounts that are not whole fen in range', async () => {
    const plan = await make({ price: 9800, originalPrice: 19800, durationDays: 365, bonusCoins: 500 });
    expect(plan).toMatchObject({ price: 9800, durationDays: 365, onSale: false });
    for (const price of [-1, 0, 0.5, '100', 1e308, 2 ** 53, null]) {
      const answer = await server.call('/api/plan/make', { name: '坏价格', price }, token);
      expect(answer.body.code, String(price)).toBe(400);
    }
    const lower = await server.call('/api/plan/make', { name: '原价低', price: 500, originalPrice: 100 }, token);
    expect(lower.body).toMatchObject({ code: 400, message: '原价不能低于售价（没有原价请填 0）' });
    const count = await server.app.services.db
      .selectFrom('plans')
      .select((eb) => eb.fn.countAll().as('n'))
      .execute();
    expect(Number(count[0].n)).toBe(1);
  });

  it('lifetime plans have no days; update changes only what is sent and is logged', async () => {
    const plan = await make({ name: '永久会员', price: 29800, lifetime: true });
    expect(plan.durationDays).toBeNull();
    const { plan: updated } = await admin<{ plan: Plan }>('/api/plan/update', { id: plan.id, price: 19800 });
    expect(updated).toMatchObject({ price: 19800, durationDays: null, name: '永久会员' });
    const { plan: timed } = await admin<{ plan: Plan }>('/api/plan/update', { id: plan.id, lifetime: false });
    expect(timed.durationDays).toBe(30);
    const log = await server.app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'plan.update')
      .where('target_id', '=', String(plan.id))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(log.before ?? '')).toEqual({ price: 29800 });
    expect(JSON.parse(log.after ?? '')).toEqual({ price: 19800 });
    expect((await server.call('/api/plan/update', { id: plan.id }, token)).body.code).toBe(400);
  });

  it('apps see the plans on sale for their platform, in the operators’ order', async () => {
    const both = await make({ name: '季度会员', sort: 2, onSale: true, iosProductId: 'vip.quarter' });
    const android = await make({ name: '安卓专享', sort: 1, onSale: true, androidProductId: 'vip_android' });
    await make({ name: '未上架', sort: 0, onSale: false, iosProductId: 'vip.hidden' });
    const ios = await server.call('/api/plan/fetch/onsale', { app: 'tailor', platform: 'ios' });
    const iosList = (ios.body.data as { list: { id: number; productId: string }[] }).list;
    expect(iosList.map((p) => [p.id, p.productId])).toEqual([[both.id, 'vip.quarter']]);
    const onAndroid = await server.call('/api/plan/fetch/onsale', { app: 'tailor', platform: 'android' });
    const androidList = (onAndroid.body.data as { list: { id: number; productId: string }[] }).list;
    expect(androidList.map((p) => [p.id, p.productId])).toEqual([
      [android.id, 'vip_android'],
      [both.id, ''],
    ]);
    const page = await admin<{ list: Plan[]; total: number }>('/api/plan/fetch/page', { onSale: true });
    expect(page.total).toBe(2);
  });
});
