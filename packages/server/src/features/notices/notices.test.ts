import type { Notice } from '@appdesk/contract/endpoints/notices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertPhysicalItem } from '../../../test/rows';

let server: TestServer;
let adminA: string;
let adminB: string;
let userId: number;
let userToken: string;
beforeAll(async () => {
  server = await startServer();
  adminA = (await server.initAdmin()).token;
  const b = await server.addUser({ isAdmin: true });
  adminB = await server.login(b.phone, b.password);
  const user = await server.addUser();
  userId = user.id;
  userToken = await server.login(user.phone, user.password);
});
afterAll(async () => {
  await server.close();
});

const ok = async <T>(path: string, body: unknown, token: string) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const bell = (token: string) => ok<Notice[]>('/api/notices/fetch', {}, token);
const db = () => server.app.services.db;

/** Pending and finished rows of each of the dashboard's to-dos, written as their features write them. */
async function addTodos() {
  const now = Date.now();
  const feedback = (status: 'pending' | 'handled') => ({
    app: 'tailor',
    user_id: userId,
    content: '待办',
    contact: '',
    app_version: '1.0',
    channel: 'huawei',
    device_model: 'x',
    os_version: '1',
    device_id: 'd',
    status,
    created_at: now,
    updated_at: now,
  });
  await db()
    .insertInto('feedback')
    .values([feedback('pending'), feedback('pending'), feedback('handled')])
    .execute();
  const review = (status: string) => ({
    user_id: userId,
    app: 'tailor',
    store: 'huawei',
    screenshot: '/files/x.png',
    status,
    coins: 0,
    created_at: now - 3_600_000,
    updated_at: now,
  });
  await db()
    .insertInto('review_rewards')
    .values([review('pending'), review('pending'), review('pending'), review('rejected')])
    .execute();
  const item = await insertPhysicalItem(db(), '待办商品', now);
  let seq = 0;
  const record = (status: string) => ({
    record_no: `EXTODO${now}${seq++}`,
    app: 'tailor',
    user_id: userId,
    item_id: item.id,
    item_name: item.name,
    kind: 'physical',
    value: 0,
    cost: 10,
    status,
    created_at: now,
    updated_at: now,
  });
  await db()
    .insertInto('exchange_records')
    .values([record('waiting'), record('shipped'), record('waiting')])
    .execute();
}

describe('the header bell', () => {
  it('lists the dashboard’s to-dos with the dashboard’s counts, each linking to the list its card opens', async () => {
    await addTodos();
    const { cards } = await ok<{ cards: Record<string, { value: number }> }>(
      '/api/dashboard/fetch/cards',
      { refresh: true },
      adminA,
    );
    const notices = await bell(adminA);
    const todo = (type: string) => notices.filter((n) => n.type === type);
    expect(todo('feedback').map((n) => [n.count, n.link])).toEqual([
      [cards.feedbackPending.value, '/admin/admin/feedback?status=pending'],
    ]);
    expect(todo('review').map((n) => [n.count, n.link])).toEqual([
      [cards.reviewRewardsPending.value, '/admin/admin/reviewreward?status=pending'],
    ]);
    expect(todo('exchange').map((n) => [n.count, n.link])).toEqual([
      [cards.exchangesWaiting.value, '/admin/admin/exchangerecord?status=waiting'],
    ]);
    expect([cards.feedbackPending.value, cards.reviewRewardsPending.value, cards.exchangesWaiting.value]).toEqual([
      2, 3, 2,
    ]);
    expect(todo('review')[0].description).toBe('3 张评价截图等待审核');
  });

  it('files feedback threads under 反馈工单, not with 意见反馈', async () => {
    await ok('/api/feedbackv2/make', { app: 'tailor', category: 'payment', content: '扣款了没开通' }, userToken);
    const notices = await bell(adminA);
    const thread = notices.filter((n) => n.link?.startsWith('/admin/admin/feedbackv2'));
    expect(thread.map((n) => [n.type, n.count])).toEqual([['thread', 1]]);
    expect(
      notices.filter((n) => n.type === 'feedback').every((n) => n.link?.startsWith('/admin/admin/feedback?')),
    ).toBe(true);
  });

  it('does not show an operator their own broadcast; the other operators see it', async () => {
    await ok('/api/message/make', { userId: null, title: '系统维护通知', content: '今晚维护' }, adminA);
    const mine = (await bell(adminA)).filter((n) => n.type === 'message');
    const theirs = (await bell(adminB)).filter((n) => n.type === 'message');
    expect(mine.map((n) => n.title)).not.toContain('系统维护通知');
    expect(theirs.map((n) => n.title)).toContain('系统维护通知');
    // Nor does it count as unread in their own message list.
    const unread = (await server.call('/api/message/fetch/page/unread', { page: 0, size: 10 }, adminA)).body;
    expect(unread.total).toBe(0);
  });
});
