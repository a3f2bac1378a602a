import { createApiClient } from '@appdesk/contract/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { changeCoins } from '../../core/ledger';
import { newUserRow } from '../../core/new-user';
import { createSession } from '../../core/sessions';

let server: TestServer;
let api: ReturnType<typeof createApiClient>;
beforeAll(async () => {
  server = await startServer();
  const { token } = await server.initAdmin();
  api = createApiClient({ baseUrl: server.url, token: () => token });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const coinsOf = async (userId: number) =>
  Number((await db().selectFrom('users').select('coins').where('id', '=', userId).executeTakeFirstOrThrow()).coins);
const auditTargets = async (action: string) =>
  (await db().selectFrom('audit_log').select('target_id').where('action', '=', action).orderBy('id').execute()).map(
    (r) => Number(r.target_id),
  );

let seq = 0;
/** `count` redemptions of one physical item (100 coins, stock 10) by one user who had 1,000 coins. */
async function redemptions(count: number) {
  const { item } = await api.ok('/api/exchange/item/make', {
    name: `帆布袋${seq++}`,
    kind: 'physical',
    costCoins: 100,
    stock: 10,
    enabled: true,
  });
  const phone = `176${String(Date.now() % 1_000_000).padStart(6, '0')}${String(seq % 100).padStart(2, '0')}`;
  const { id: userId } = await db()
    .insertInto('users')
    .values(newUserRow({ phone, password_hash: 'x' }))
    .returning('id')
    .executeTakeFirstOrThrow();
  await db()
    .transaction()
    .execute((trx) => changeCoins(trx, { userId, delta: 1000, reason: 'admin', note: '测试' }));
  const token = await createSession(db(), userId, { ip: null, userAgent: null });
  const delivery = { receiverName: '王五', receiverPhone: '13612345678', address: '杭州市西湖区文三路 1 号' };
  for (let i = 0; i < count; i += 1) await api.ok('/api/exchange/make', { itemId: item.id, ...delivery }, { token });
  const page = await api.ok('/api/exchange/record/fetch/page', { itemId: item.id, sort: 'createdAt', order: 'ascend' });
  return { item, userId, ids: page.list.map((r) => r.id) };
}

describe('batch shipping', () => {
  it('ships each record with its own tracking number; a cancelled or missing one fails alone', async () => {
    const { ids } = await redemptions(3);
    await api.ok('/api/exchange/record/cancel', { id: ids[1], note: '用户要求取消' });
    const answer = await api.ok('/api/exchange/record/ship/batch', {
      ids: [ids[0], ids[1], 999_999, ids[2]],
      carrier: '顺丰速运',
      trackingNos: ['SF0000000001', 'SF0000000002', 'SF0000000003', 'SF0000000004'],
    });
    expect(answer).toEqual({
      results: [
        { id: ids[0], ok: true },
        { id: ids[1], ok: false, code: 409, message: expect.stringMatching(/已取消.*不能发货/) },
        { id: 999_999, ok: false, code: 404, message: expect.stringMatching(/[\u4e00-\u9fa5]/) },
        { id: ids[2], ok: true },
      ],
      succeeded: 2,
      failed: 2,
    });
    const rows = await db()
      .selectFrom('exchange_records')
      .select(['id', 'status', 'tracking_no'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: ids[0], status: 'shipped', tracking_no: 'SF0000000001' },
      { id: ids[1], status: 'cancelled', tracking_no: null },
      { id: ids[2], status: 'shipped', tracking_no: 'SF0000000004' },
    ]);
    // One operation-log row per shipped record, as a single 发货 records.
    const shipped = await auditTargets('exchange.record.ship');
    expect(shipped.filter((id) => ids.includes(id))).toEqual([ids[0], ids[2]]);
  });

  it('refuses a list of tracking numbers that does not line up, or repeated ids, before any record', async () => {
    const { ids } = await redemptions(2);
    const short = await api.call('/api/exchange/record/ship/batch', {
      ids,
      carrier: '顺丰速运',
      trackingNos: ['SF0000000009'],
    });
    expect([short.code, short.message]).toEqual([400, '快递单号的个数要与所选兑换记录一致']);
    const twice = await api.call('/api/exchange/record/cancel/batch', { ids: [ids[0], ids[0]], note: '重复' });
    expect([twice.code, twice.message]).toEqual([400, expect.stringContaining('重复')]);
    const many = await api.call('/api/exchange/record/cancel/batch', {
      ids: Array.from({ length: 101 }, (_, i) => i + 1),
      note: '太多',
    });
    expect([many.code, many.message]).toEqual([400, expect.stringContaining('最多选择 100 条')]);
    const statuses = await db().selectFrom('exchange_records').select('status').where('id', 'in', ids).execute();
    expect(statuses.map((r) => r.status)).toEqual(['waiting', 'waiting']);
  });
});

describe('batch cancelling', () => {
  it('refunds each record once, even when the same batch is sent twice', async () => {
    const { item, userId, ids } = await redemptions(3);
    expect(await coinsOf(userId)).toBe(700);
    await api.ok('/api/exchange/record/ship', { id: ids[2], carrier: '中通快递', trackingNo: 'ZT0000000001' });
    const first = await api.ok('/api/exchange/record/cancel/batch', { ids, note: '批量退回' });
    expect([first.succeeded, first.failed]).toEqual([3, 0]);
    expect(await coinsOf(userId)).toBe(1000);
    const second = await api.ok('/api/exchange/record/cancel/batch', { ids, note: '批量退回' });
    expect(second.results.map((r) => [r.ok, r.code])).toEqual([
      [false, 409],
      [false, 409],
      [false, 409],
    ]);
    expect(await coinsOf(userId)).toBe(1000);
    const stock = await db().selectFrom('exchange_items').select('stock').where('id', '=', item.id).executeTakeFirst();
    expect(Number(stock?.stock)).toBe(10);
    const refunds = await db()
      .selectFrom('coin_records')
      .select('ref_id')
      .where('ref_type', '=', 'exchange.cancel')
      .where('user_id', '=', userId)
      .execute();
    expect(refunds).toHaveLength(3);
    expect((await auditTargets('exchange.record.cancel')).filter((id) => ids.includes(id))).toEqual(ids);
  });

  it('is for administrators only', async () => {
    const { ids } = await redemptions(1);
    const user = await server.addUser();
    const token = await server.login(user.phone, user.password);
    const answer = await api.call('/api/exchange/record/cancel/batch', { ids, note: '越权' }, { token });
    expect(answer.code).toBe(403);
  });
});
