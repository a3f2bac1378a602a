import { createApiClient } from '@appdesk/contract/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tinyPng } from '../../../test/harness';
import { unreconciledUsers } from '../../core/ledger';

let server: TestServer;
let api: ReturnType<typeof createApiClient>;
beforeAll(async () => {
  server = await startServer();
  const { token } = await server.initAdmin();
  api = createApiClient({ baseUrl: server.url, token: () => token });
  await api.ok('/api/reviewreward/update/settings', { coins: 120 });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const coinsOf = async (id: number) =>
  Number((await db().selectFrom('users').select('coins').where('id', '=', id).executeTakeFirstOrThrow()).coins);
/** A user's claim for one store, with its screenshot. */
async function claim(token: string, store: string): Promise<number> {
  const form = new FormData();
  form.append('store', JSON.stringify(store));
  form.append('screenshot', new Blob([tinyPng as Uint8Array<ArrayBuffer>]), 'shot.png');
  const answer = await server.raw('/api/reviewreward/make', { method: 'POST', headers: { token }, body: form });
  expect(answer.body.code).toBe(200);
  return (answer.body.data as { claim: { id: number } }).claim.id;
}
async function claimant() {
  const user = await server.addUser();
  return { id: user.id, token: await server.login(user.phone, user.password) };
}

describe('batch review claims', () => {
  it('approves each claim on its own: coins once per claim, a resent batch grants nothing more', async () => {
    const a = await claimant();
    const b = await claimant();
    const ids = [await claim(a.token, 'huawei'), await claim(a.token, 'xiaomi'), await claim(b.token, 'huawei')];
    await api.ok('/api/reviewreward/reject', { id: ids[2], reason: '截图看不清' });

    const first = await api.ok('/api/reviewreward/approve/batch', { ids: [...ids, 999_999] });
    // A rejected claim may be approved on review, as the single action allows; the missing one fails alone.
    expect(first.results.map((r) => [r.id, r.ok, r.code])).toEqual([
      [ids[0], true, undefined],
      [ids[1], true, undefined],
      [ids[2], true, undefined],
      [999_999, false, 404],
    ]);
    expect([first.succeeded, first.failed]).toEqual([3, 1]);
    expect([await coinsOf(a.id), await coinsOf(b.id)]).toEqual([240, 120]);

    const again = await api.ok('/api/reviewreward/approve/batch', { ids });
    expect(again).toMatchObject({ succeeded: 0, failed: 3 });
    expect(again.results.map((r) => [r.ok, r.code])).toEqual(ids.map(() => [false, 409]));
    expect([await coinsOf(a.id), await coinsOf(b.id)]).toEqual([240, 120]);
    expect(await unreconciledUsers(db())).toEqual([]);
    const logged = await db()
      .selectFrom('audit_log')
      .select('target_id')
      .where('action', '=', 'reviewreward.approve')
      .execute();
    expect(logged.map((r) => Number(r.target_id)).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
  });

  it('rejects pending claims with one reason; an approved one fails with the single action’s words', async () => {
    const c = await claimant();
    const ids = [await claim(c.token, 'oppo'), await claim(c.token, 'vivo')];
    await api.ok('/api/reviewreward/approve', { id: ids[0] });
    const answer = await api.ok('/api/reviewreward/reject/batch', { ids, reason: '评价与应用不符' });
    expect(answer.results).toEqual([
      { id: ids[0], ok: false, code: 409, message: '该申请已通过，不能驳回' },
      { id: ids[1], ok: true },
    ]);
    const row = await db()
      .selectFrom('review_rewards')
      .select(['status', 'reason'])
      .where('id', '=', ids[1])
      .executeTakeFirst();
    expect(row).toEqual({ status: 'rejected', reason: '评价与应用不符' });
    const empty = await api.call('/api/reviewreward/reject/batch', { ids, reason: '' });
    expect(empty.code).toBe(400);
  });
});
