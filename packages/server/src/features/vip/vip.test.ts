import { VIP_LIFETIME_MS } from '@appdesk/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { unreconciledUsers } from '../../core/ledger';
import { changeVip, DAY_MS, nextExpiry } from './ledger';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const expiryOf = async (id: number, app = 'tailor') => {
  const row = await db()
    .selectFrom('vip_entitlements')
    .select('expires_at')
    .where('user_id', '=', id)
    .where('app', '=', app)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.expires_at);
};
const recordsOf = (id: number) =>
  db().selectFrom('vip_records').selectAll().where('user_id', '=', id).orderBy('id').execute();

describe('VIP expiry', () => {
  it('extends from the later of now and the current expiry, and takes back only time still ahead', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(nextExpiry(null, 30, now)).toBe(now + 30 * DAY_MS);
    expect(nextExpiry(now - 5 * DAY_MS, 30, now)).toBe(now + 30 * DAY_MS);
    expect(nextExpiry(now + 5 * DAY_MS, 30, now)).toBe(now + 35 * DAY_MS);
    expect(nextExpiry(now + 5 * DAY_MS, 'lifetime', now)).toBe(VIP_LIFETIME_MS);
    expect(nextExpiry(VIP_LIFETIME_MS, 30, now)).toBe(VIP_LIFETIME_MS);
    expect(nextExpiry(now + 40 * DAY_MS, -30, now)).toBe(now + 10 * DAY_MS);
    expect(nextExpiry(now + 10 * DAY_MS, -30, now)).toBe(now);
    expect(nextExpiry(now - DAY_MS, -30, now)).toBe(now - DAY_MS);
    expect(nextExpiry(null, -30, now)).toBeNull();
  });

  it('an operator adjusts it with a reason: recorded in the history and the operation log, seen by the app', async () => {
    const user = await server.addUser();
    const before = Date.now();
    const answer = await server.call(
      '/api/vip/update',
      { id: user.id, app: 'tailor', days: 30, reason: '客服补偿' },
      token,
    );
    expect(answer.body.code).toBe(200);
    const first = (await expiryOf(user.id)) as number;
    expect(first).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(first).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);

    await server.call('/api/vip/update', { id: user.id, app: 'tailor', days: 10, reason: '活动赠送' }, token);
    expect(await expiryOf(user.id)).toBe(first + 10 * DAY_MS);
    await server.call('/api/vip/update', { id: user.id, app: 'tailor', days: -5, reason: '误操作收回' }, token);
    expect(await expiryOf(user.id)).toBe(first + 5 * DAY_MS);

    const records = await recordsOf(user.id);
    expect(records.map((r) => [r.days, r.reason, r.note])).toEqual([
      [30, 'admin', '客服补偿'],
      [10, 'admin', '活动赠送'],
      [-5, 'admin', '误操作收回'],
    ]);
    // Each record continues from the one before.
    expect(Number(records[1].before_expires_at)).toBe(Number(records[0].after_expires_at));
    expect(Number(records[2].after_expires_at)).toBe(first + 5 * DAY_MS);

    const logs = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'vip.update')
      .where('target_id', '=', String(user.id))
      .execute();
    expect(logs).toHaveLength(3);
    expect(JSON.parse(logs[0].after ?? '{}')).toMatchObject({ days: 30, reason: '客服补偿' });

    const appToken = await server.login(user.phone, user.password);
    const info = await server.call('/api/users/fetch/info', {}, appToken);
    expect((info.body.data as { user: { vipExpiresAt: string } }).user.vipExpiresAt).toBe(
      new Date(first + 5 * DAY_MS).toISOString(),
    );

    const page = await server.call('/api/vip/fetch/page', { userId: user.id }, token);
    const data = page.body.data as { list: { days: number; userPhone: string }[]; total: number };
    expect(data.total).toBe(3);
    expect(data.list.map((r) => r.days)).toEqual([-5, 10, 30]);
    expect(data.list[0].userPhone).toMatch(/^\d{3}\*{4}\d{4}$/);
  });

  it('taking back from a user with no time left is refused and changes nothing', async () => {
    const user = await server.addUser();
    const answer = await server.call(
      '/api/vip/update',
      { id: user.id, app: 'tailor', days: -3, reason: '收回' },
      token,
    );
    expect(answer.body).toMatchObject({ code: 409, message: '该用户没有剩余的会员时长可以收回' });
    expect(await recordsOf(user.id)).toEqual([]);
    expect(await expiryOf(user.id)).toBeNull();
  });

  it('amounts that are not whole days in range are refused', async () => {
    const user = await server.addUser();
    for (const days of [0, 0.5, '30', 1e308, 2 ** 53, 36_501, -36_501]) {
      const answer = await server.call('/api/vip/update', { id: user.id, app: 'tailor', days, reason: '测试' }, token);
      expect(answer.body.code, String(days)).toBe(400);
    }
    expect(await recordsOf(user.id)).toEqual([]);
  });

  it('concurrent grants each extend from the previous one, and one business record grants only once', async () => {
    const user = await server.addUser();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.call('/api/vip/update', { id: user.id, app: 'tailor', days: 1, reason: `并发 ${i}` }, token),
      ),
    );
    const records = await recordsOf(user.id);
    expect(records).toHaveLength(20);
    const first = Number(records[0].after_expires_at);
    expect(await expiryOf(user.id)).toBe(first + 19 * DAY_MS);

    const grant = () =>
      db()
        .transaction()
        .execute((trx) =>
          changeVip(trx, { userId: user.id, app: 'tailor', days: 7, reason: 'order', refType: 'order', refId: 'X1' }),
        );
    await grant();
    await expect(grant()).rejects.toThrow();
    expect(await expiryOf(user.id)).toBe(first + 26 * DAY_MS);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it('the history is append-only', async () => {
    await expect(db().updateTable('vip_records').set({ note: 'x' }).execute()).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom('vip_records').execute()).rejects.toThrow(/append-only/);
  });
});
