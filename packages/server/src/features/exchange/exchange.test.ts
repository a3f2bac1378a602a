import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { changeCoins, unreconciledUsers } from '../../core/ledger';
import { newUserRow } from '../../core/new-user';
import { createSession } from '../../core/sessions';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
let phoneSeq = 0;
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Item = { id: number; stock: number | null };
const makeItem = (body: Record<string, unknown>) =>
  ok<{ item: Item }>('/api/exchange/item/make', { name: '商品', costCoins: 100, enabled: true, ...body }).then(
    (d) => d.item,
  );

/** App users with `coins` each (granted through the ledger) and a session, made without argon2. */
async function appUsers(count: number, coins: number) {
  const users: { id: number; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const phone = `199${String(Date.now() % 1_000_000).padStart(6, '0')}${String(phoneSeq++ % 100).padStart(2, '0')}`;
    const { id } = await db()
      .insertInto('users')
      .values(newUserRow({ phone, password_hash: 'x' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    if (coins > 0) {
      await db()
        .transaction()
        .execute((trx) => changeCoins(trx, { userId: id, delta: coins, reason: 'admin', note: '测试' }));
    }
    users.push({ id, token: await createSession(db(), id, { ip: null, userAgent: null }) });
  }
  return users;
}
const redeem = (token: string, body: Record<string, unknown>, key?: string) =>
  fetch(`${server.url}/api/exchange/make`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token, ...(key ? { 'Idempotency-Key': key } : {}) },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ code: number; message: string; data?: { record: { code: string | null } } }>);
const balance = async (id: number) =>
  Number((await db().selectFrom('users').select('coins').where('id', '=', id).executeTakeFirstOrThrow()).coins);

describe('exchange', () => {
  it('grants VIP days and coins at once, hands over a code, and a physical item waits with its delivery', async () => {
    const vip = await makeItem({ name: '7 天会员', kind: 'vip_days', value: 7, costCoins: 70 });
    const coins = await makeItem({ name: '100 金币', kind: 'coins', value: 100, costCoins: 50 });
    const codeItem = await makeItem({ name: '视频会员兑换码', kind: 'code', costCoins: 30 });
    const physical = await makeItem({ name: '定制马克杯', kind: 'physical', costCoins: 200, stock: 5 });
    const imported = await ok<{ added: number; skipped: number; stock: number }>('/api/exchange/code/import', {
      itemId: codeItem.id,
      text: '兑换码\nAAA-1\nAAA-2, AAA-3\nAAA-1\n',
    });
    expect(imported).toEqual({ added: 3, skipped: 0, stock: 3 });
    const again = await ok('/api/exchange/code/import', { itemId: codeItem.id, text: 'AAA-3\nAAA-4' });
    expect(again).toEqual({ added: 1, skipped: 1, stock: 4 });

    const [user] = await appUsers(1, 1000);
    expect((await redeem(user.token, { itemId: vip.id })).code).toBe(200);
    const vipUser = await db()
      .selectFrom('vip_entitlements')
      .select('expires_at')
      .where('user_id', '=', user.id)
      .where('app', '=', 'tailor')
      .executeTakeFirst();
    expect(Number(vipUser?.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const gotCoins = await redeem(user.token, { itemId: coins.id });
    expect(gotCoins).toMatchObject({ code: 200, data: { coins: 1000 - 70 - 50 + 100 } });
    const gotCode = await redeem(user.token, { itemId: codeItem.id });
    expect(gotCode.data?.record.code).toBe('AAA-1');
    const noAddress = await redeem(user.token, { itemId: physical.id });
    expect(noAddress).toMatchObject({ code: 400 });
    const shipped = await redeem(user.token, {
      itemId: physical.id,
      receiverName: '张三',
      receiverPhone: '13912345678',
      address: '上海市浦东新区世纪大道 100 号',
    });
    expect(shipped).toMatchObject({ code: 200, data: { record: { status: 'waiting' } } });
    expect(await balance(user.id)).toBe(1000 - 70 - 50 + 100 - 30 - 200);
    const mine = await ok<{ list: { itemName: string }[]; total: number }>('/api/exchange/fetch/mine', {}, user.token);
    expect(mine.total).toBe(4);
    expect(mine.list[0]?.itemName).toBe('定制马克杯');
    const shop = await ok<{ list: { id: number }[] }>('/api/exchange/fetch/list', {}, '');
    expect(shop.list.map((i) => i.id)).toEqual(expect.arrayContaining([vip.id, coins.id, codeItem.id, physical.id]));
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('refuses what is not on offer: disabled, outside its window, over the limit, without coins', async () => {
    const [user] = await appUsers(1, 500);
    const off = await makeItem({ kind: 'physical', enabled: false });
    expect(await redeem(user.token, { itemId: off.id })).toMatchObject({ code: 409, message: '该商品已下架' });
    const later = await makeItem({ kind: 'coins', value: 1, startsAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await redeem(user.token, { itemId: later.id })).toMatchObject({ code: 409, message: '该商品尚未开始兑换' });
    const ended = await makeItem({
      kind: 'coins',
      value: 1,
      startsAt: new Date(Date.now() - 7_200_000).toISOString(),
      endsAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(await redeem(user.token, { itemId: ended.id })).toMatchObject({ code: 409, message: '该商品的兑换已结束' });
    const once = await makeItem({ kind: 'vip_days', value: 1, perUserLimit: 1, costCoins: 10 });
    expect((await redeem(user.token, { itemId: once.id })).code).toBe(200);
    expect((await redeem(user.token, { itemId: once.id })).code).toBe(409);
    const dear = await makeItem({ kind: 'vip_days', value: 1, costCoins: 10_000 });
    expect(await redeem(user.token, { itemId: dear.id })).toMatchObject({ code: 409, message: '金币余额不足' });
    expect(await balance(user.id)).toBe(490);
    const bad = await server.call('/api/exchange/item/make', { name: '坏', kind: 'vip_days', costCoins: 1 }, admin);
    expect(bad.body).toMatchObject({ code: 400 });
  });

  it('replaying an Idempotency-Key answers the first result and debits once', async () => {
    const item = await makeItem({ kind: 'coins', value: 5, costCoins: 40 });
    const [user] = await appUsers(1, 100);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => redeem(user.token, { itemId: item.id }, `r-${user.id}`)),
    );
    expect(answers.every((a) => a.code === 200)).toBe(true);
    expect(new Set(answers.map((a) => JSON.stringify(a.data))).size).toBe(1);
    expect(await balance(user.id)).toBe(65);
    const records = await db().selectFrom('exchange_records').select('id').where('user_id', '=', user.id).execute();
    expect(records).toHaveLength(1);
  });

  it('200 concurrent redemptions of stock 10 succeed exactly 10 times', async () => {
    const item = await makeItem({ kind: 'physical', costCoins: 10, stock: 10 });
    const users = await appUsers(200, 10);
    const delivery = { receiverName: '李四', receiverPhone: '13912345678', address: '北京市海淀区中关村大街 1 号' };
    const answers = await Promise.all(users.map((u) => redeem(u.token, { itemId: item.id, ...delivery })));
    expect(answers.filter((a) => a.code === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.code !== 200).every((a) => a.code === 409)).toBe(true);
    const left = await db().selectFrom('exchange_items').select('stock').where('id', '=', item.id).executeTakeFirst();
    expect(Number(left?.stock)).toBe(0);
    const paid = await Promise.all(users.map((u) => balance(u.id)));
    expect(paid.filter((c) => c === 0)).toHaveLength(10);
    expect(paid.filter((c) => c === 10)).toHaveLength(190);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('50 concurrent redemptions by a user whose coins cover one succeed once', async () => {
    const item = await makeItem({ kind: 'vip_days', value: 1, costCoins: 100 });
    const [user] = await appUsers(1, 150);
    const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(user.token, { itemId: item.id })));
    expect(answers.filter((a) => a.code === 200)).toHaveLength(1);
    expect(await balance(user.id)).toBe(50);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('hands every code out once under concurrency, and refuses when they run out', async () => {
    const item = await makeItem({ kind: 'code', costCoins: 1 });
    const codes = Array.from({ length: 20 }, (_, i) => `C-${i}`);
    await ok('/api/exchange/code/import', { itemId: item.id, text: codes.join('\n') });
    const users = await appUsers(40, 1);
    const answers = await Promise.all(users.map((u) => redeem(u.token, { itemId: item.id })));
    const handed = answers.filter((a) => a.code === 200).map((a) => a.data?.record.code);
    expect(handed).toHaveLength(20);
    expect(new Set(handed).size).toBe(20);
    const used = await db()
      .selectFrom('exchange_codes')
      .select('record_id')
      .where('item_id', '=', item.id)
      .where('record_id', 'is not', null)
      .execute();
    expect(used).toHaveLength(20);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('ships with a tracking number and a message; cancelling refunds coins and stock through the ledger', async () => {
    const item = await makeItem({ kind: 'physical', costCoins: 80, stock: 2 });
    const [user] = await appUsers(1, 200);
    const delivery = { receiverName: '赵六', receiverPhone: '13912345678', address: '广州市天河区体育西路 1 号' };
    await redeem(user.token, { itemId: item.id, ...delivery });
    await redeem(user.token, { itemId: item.id, ...delivery });
    type Row = { id: number; status: string; receiverPhone: string };
    const page = await ok<{ list: Row[]; total: number }>('/api/exchange/record/fetch/page', {
      itemId: item.id,
      status: 'waiting',
    });
    expect(page.total).toBe(2);
    expect(page.list[0]?.receiverPhone).toBe('139****5678');
    const [second, first] = page.list;
    const shipped = await ok<{ record: Row }>('/api/exchange/record/ship', {
      id: first.id,
      carrier: '顺丰速运',
      trackingNo: 'SF100200300',
    });
    expect(shipped.record.status).toBe('shipped');
    const inbox = await db().selectFrom('messages').select('content').where('user_id', '=', user.id).execute();
    expect(inbox.map((m) => m.content).join()).toContain('SF100200300');
    expect(await balance(user.id)).toBe(40);
    await ok('/api/exchange/record/cancel', { id: second.id, note: '用户要求取消' });
    expect(await balance(user.id)).toBe(120);
    const stock = await db().selectFrom('exchange_items').select('stock').where('id', '=', item.id).executeTakeFirst();
    expect(Number(stock?.stock)).toBe(1);
    const again = await server.call('/api/exchange/record/cancel', { id: second.id, note: '再取消' }, admin);
    expect(again.body.code).toBe(409);
    expect(await unreconciledUsers(db())).toEqual([]);
    const xlsx = await server.raw('/api/exchange/record/export', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin },
      body: JSON.stringify({ itemId: item.id }),
    });
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
  });
});
