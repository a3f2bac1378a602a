import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tinyPng } from '../../../test/harness';
import { unreconciledUsers } from '../../core/ledger';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Claim = { id: number; status: string; coins: number; reason: string | null; screenshot: string };
const db = () => server.app.services.db;
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
/** A claim with a screenshot; the form fields travel as JSON beside the file. */
async function claim(token: string, store: string) {
  const form = new FormData();
  form.append('store', JSON.stringify(store));
  form.append('screenshot', new Blob([tinyPng as Uint8Array<ArrayBuffer>]), 'shot.png');
  const answer = await server.raw('/api/reviewreward/make', { method: 'POST', headers: { token }, body: form });
  return answer.body as { code: number; message: string; data?: { claim: Claim } };
}
const coinsOf = async (id: number) =>
  Number((await db().selectFrom('users').select('coins').where('id', '=', id).executeTakeFirstOrThrow()).coins);

describe('review rewards', () => {
  it('approves with the configured coins, rejects with a reason, one approval per user, app and store', async () => {
    const user = await server.addUser();
    const token = await server.login(user.phone, user.password);
    await ok('/api/reviewreward/update/settings', { coins: 150 });
    const first = await claim(token, 'huawei');
    expect(first).toMatchObject({
      code: 200,
      data: { claim: { status: 'pending', screenshot: expect.stringMatching(/^\/files\//) } },
    });
    expect((await claim(token, 'huawei')).code).toBe(409);
    const notices = await ok<{ type: string; link: string | null }[]>('/api/notices/fetch', {});
    expect(notices.some((n) => n.type === 'review' && n.link?.includes('reviewreward'))).toBe(true);

    const id = first.data?.claim.id as number;
    // Concurrent approvals grant once.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => server.call('/api/reviewreward/approve', { id }, admin)),
    );
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
    expect(await coinsOf(user.id)).toBe(150);
    expect((await claim(token, 'huawei')).message).toContain('已领取过');

    const second = await claim(token, 'xiaomi');
    const rejected = await ok<{ claim: Claim }>('/api/reviewreward/reject', {
      id: second.data?.claim.id as number,
      reason: '截图中没有看到五星好评',
    });
    expect(rejected.claim).toMatchObject({ status: 'rejected', reason: '截图中没有看到五星好评', coins: 0 });
    const inbox = await db().selectFrom('messages').select('title').where('user_id', '=', user.id).execute();
    expect(inbox.map((m) => m.title).sort()).toEqual(['好评奖励已发放', '好评奖励申请未通过']);
    const pending = await ok<{ total: number }>('/api/reviewreward/fetch/page', { status: 'pending' });
    expect(pending.total).toBe(0);
    const mine = await ok<{ total: number }>('/api/reviewreward/fetch/mine', {}, token);
    expect(mine.total).toBe(2);
    expect(await unreconciledUsers(db())).toEqual([]);
  });
});
