import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tinyPng } from '../../../test/harness';
import { POSTS_PER_HOUR } from './routes';

let server: TestServer;
let admin: string;
let alice: { id: number; token: string };
let bob: { id: number; token: string };
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  const a = await server.addUser();
  const b = await server.addUser();
  alice = { id: a.id, token: await server.login(a.phone, a.password) };
  bob = { id: b.id, token: await server.login(b.phone, b.password) };
});
afterAll(async () => {
  await server.close();
});

type Thread = { id: number; status: string; unread: number | boolean; assigneeId?: number | null; subject: string };
type Post = { from: string; author: string; content: string; images: { url: string }[] };
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const bell = async () =>
  (await ok<{ id: string; type: string }[]>('/api/notices/fetch', {})).filter((n) => n.type === 'thread');
const open = (token: string, content: string, images: number[] = []) =>
  ok<{ thread: Thread }>('/api/feedbackv2/make', { app: 'tailor', category: 'payment', content, images }, token);

describe('feedback threads', () => {
  it('run from a user’s question through a canned reply, unread on both sides, to closing', async () => {
    const upload = await server.upload('/api/feedback/upload', 'file', tinyPng, 'pay.png', alice.token);
    const { thread } = await open(alice.token, '扣款成功但会员未开通', [(upload.body.data as { id: number }).id]);
    expect(thread).toMatchObject({ status: 'open', unread: 0, subject: '扣款成功但会员未开通' });
    expect((await bell()).map((n) => n.id)).toContain(`feedback-thread-${thread.id}`);
    const listed = await ok<{ list: Thread[] }>('/api/feedbackv2/fetch/page', { unread: true });
    expect(listed.list.map((t) => t.id)).toContain(thread.id);

    const { canned } = await ok<{ canned: { id: number; content: string } }>('/api/feedbackv2/canned/make', {
      title: '已补开会员',
      content: '您好，已为您补开会员，请重启 App 查看。',
    });
    const shot = await server.upload('/api/finder/single', 'file', tinyPng, 'done.png', admin);
    const replied = await ok<{ thread: Thread; posts: Post[] }>('/api/feedbackv2/reply', {
      id: thread.id,
      content: canned.content,
      cannedId: canned.id,
      images: [(shot.body.data as { id: number }).id],
    });
    expect(replied.thread).toMatchObject({ status: 'replied', unread: false });
    expect(replied.posts.map((p) => p.from)).toEqual(['user', 'admin']);
    expect(replied.posts[1].images).toHaveLength(1);
    expect((await bell()).map((n) => n.id)).not.toContain(`feedback-thread-${thread.id}`);

    const mine = await ok<{ list: Thread[]; unreadTotal: number }>('/api/feedbackv2/fetch/mine', {}, alice.token);
    expect(mine.list.find((t) => t.id === thread.id)?.unread).toBe(1);
    expect(mine.unreadTotal).toBe(1);
    const opened = await ok<{ posts: Post[] }>('/api/feedbackv2/fetch/thread', { id: thread.id }, alice.token);
    expect(opened.posts.map((p) => [p.from, p.author])).toEqual([
      ['user', '我'],
      ['admin', '客服'],
    ]);
    expect((await ok<{ unreadTotal: number }>('/api/feedbackv2/fetch/mine', {}, alice.token)).unreadTotal).toBe(0);

    const closed = await ok<{ thread: Thread }>('/api/feedbackv2/close', { id: thread.id });
    expect(closed.thread.status).toBe('closed');
    // A new question in a closed thread opens it again for the operators.
    const again = await ok<{ thread: Thread }>(
      '/api/feedbackv2/post',
      { id: thread.id, content: '还是没有' },
      alice.token,
    );
    expect(again.thread.status).toBe('open');
    expect((await bell()).map((n) => n.id)).toContain(`feedback-thread-${thread.id}`);
    await ok('/api/feedbackv2/read', { id: thread.id });
    expect((await bell()).map((n) => n.id)).not.toContain(`feedback-thread-${thread.id}`);
  });

  it('never lets a user read or answer another user’s thread', async () => {
    const { thread } = await open(alice.token, '账号被盗了');
    for (const [path, body] of [
      ['/api/feedbackv2/fetch/thread', { id: thread.id }],
      ['/api/feedbackv2/post', { id: thread.id, content: '我也来看看' }],
    ] as const) {
      const answer = await server.call(path, body, bob.token);
      expect([answer.body.code, answer.body.message]).toEqual([404, '会话不存在']);
    }
    const theirs = await ok<{ list: Thread[] }>('/api/feedbackv2/fetch/mine', {}, bob.token);
    expect(theirs.list).toEqual([]);
    // Nor attach someone else's upload, nor reach the operators' calls.
    const hers = await server.upload('/api/finder/single', 'file', tinyPng, 'x.png', admin);
    const foreign = await server.call(
      '/api/feedbackv2/make',
      { app: 'tailor', category: 'bug', content: 'x', images: [(hers.body.data as { id: number }).id] },
      bob.token,
    );
    expect(foreign.body.code).toBe(400);
    expect((await server.call('/api/feedbackv2/fetch/detail', { id: thread.id }, bob.token)).body.code).toBe(403);
    const posts = await ok<{ posts: Post[] }>('/api/feedbackv2/fetch/thread', { id: thread.id }, alice.token);
    expect(posts.posts.map((p) => p.content)).toEqual(['账号被盗了']);
  });

  it('assigns threads to operators only, and filters by assignee', async () => {
    const { thread } = await open(alice.token, '建议增加横向长截图');
    const assigned = await ok<{ thread: Thread }>('/api/feedbackv2/assign', { id: thread.id, assigneeId: 1 });
    expect(assigned.thread.assigneeId).toBe(1);
    expect(
      (await ok<{ list: Thread[] }>('/api/feedbackv2/fetch/page', { assignee: 'me' })).list.map((t) => t.id),
    ).toContain(thread.id);
    const refused = await server.call('/api/feedbackv2/assign', { id: thread.id, assigneeId: bob.id }, admin);
    expect(refused.body.code).toBe(400);
    await ok('/api/feedbackv2/assign', { id: thread.id, assigneeId: null });
    const unassigned = await ok<{ list: Thread[] }>('/api/feedbackv2/fetch/page', { assignee: 'none', search: '横向' });
    expect(unassigned.list.map((t) => t.id)).toEqual([thread.id]);
  });

  it('keeps canned replies, and refuses five images or 2,001 characters', async () => {
    const { canned } = await ok<{ canned: { id: number } }>('/api/feedbackv2/canned/make', {
      title: '稍等',
      content: '正在处理',
    });
    await ok('/api/feedbackv2/canned/update', { id: canned.id, title: '稍等', content: '正在加急处理' });
    const { list } = await ok<{ list: { id: number; content: string }[] }>('/api/feedbackv2/canned/fetch', {});
    expect(list.find((c) => c.id === canned.id)?.content).toBe('正在加急处理');
    await ok('/api/feedbackv2/canned/remove', { id: canned.id });
    expect((await server.call('/api/feedbackv2/canned/remove', { id: canned.id }, admin)).body.code).toBe(404);

    const long = await server.call(
      '/api/feedbackv2/make',
      { app: 'tailor', category: 'bug', content: '长'.repeat(2001) },
      alice.token,
    );
    expect(long.body.code).toBe(400);
    const five = await server.call(
      '/api/feedbackv2/make',
      { app: 'tailor', category: 'bug', content: '图', images: [1, 2, 3, 4, 5] },
      alice.token,
    );
    expect([five.body.code, five.body.message]).toEqual([400, expect.stringContaining('最多上传 4 张图片')]);
    const category = await server.call(
      '/api/feedbackv2/make',
      { app: 'tailor', category: 'vip', content: '图' },
      alice.token,
    );
    expect(category.body.code).toBe(400);
  });
});

describe('feedback thread limits', () => {
  it('refuse a user’s posts past the hourly limit, in Chinese, counting threads and posts together', async () => {
    const carol = await server.addUser();
    const token = await server.login(carol.phone, carol.password);
    const { thread } = await open(token, '第一条');
    for (let i = 1; i < POSTS_PER_HOUR; i += 1)
      await ok('/api/feedbackv2/post', { id: thread.id, content: `第 ${i + 1} 条` }, token);
    const refused = await server.call('/api/feedbackv2/post', { id: thread.id, content: '再来一条' }, token);
    expect(refused.body.code).toBe(429);
    expect(refused.body.message).toMatch(/^留言过于频繁（每小时最多 30 条），请 \d+ 分钟后再试$/);
    expect(
      (await server.call('/api/feedbackv2/make', { app: 'tailor', category: 'other', content: '新会话' }, token)).body
        .code,
    ).toBe(429);
  });
});
