import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Inbox = { code: number; list: { id: number; title: string }[]; total: number };
const unread = async (token: string) =>
  (await server.call('/api/message/fetch/page/unread', { page: 0, size: 1024 }, token)).body as unknown as Inbox;

describe('in-app messages', () => {
  it('a broadcast is unread for every user; read, unread and read-all move it; blocking hides it', async () => {
    const alice = await server.addUser();
    const bob = await server.addUser();
    const aliceToken = await server.login(alice.phone, alice.password);
    const bobToken = await server.login(bob.phone, bob.password);
    const made = await server.call('/api/message/make', { title: '版本更新', content: '新功能上线' }, admin);
    expect(made.body.code).toBe(200);
    const id = (made.body.data as { message: { id: number } }).message.id;
    const direct = await server.call('/api/message/make', { title: '给 Bob', content: '私信', userId: bob.id }, admin);
    const directId = (direct.body.data as { message: { id: number } }).message.id;

    const first = await unread(aliceToken);
    expect(first).toMatchObject({ code: 200, total: 1, list: [{ id, title: '版本更新' }] });
    expect((await unread(bobToken)).total).toBe(2);

    expect((await server.call('/api/message/read', { id }, aliceToken)).body.code).toBe(200);
    expect((await unread(aliceToken)).total).toBe(0);
    expect((await server.call('/api/message/unread', { id }, aliceToken)).body.code).toBe(200);
    expect((await unread(aliceToken)).total).toBe(1);
    // Alice cannot touch Bob's private message.
    expect((await server.call('/api/message/read', { id: directId }, aliceToken)).body.code).toBe(404);

    const all = await server.call('/api/message/read/all', {}, bobToken);
    expect(all.body).toMatchObject({ code: 200, data: { count: 2 } });
    expect((await unread(bobToken)).total).toBe(0);

    const mine = await server.call('/api/message/fetch/page/mine', {}, bobToken);
    expect((mine.body.data as { list: { read: boolean }[] }).list.every((m) => m.read)).toBe(true);

    // The inbox page asks for unread ones first: the older, unread one leads; newest first otherwise.
    expect((await server.call('/api/message/unread', { id }, bobToken)).body.code).toBe(200);
    const inboxIds = async (unreadFirst: boolean) =>
      (
        (await server.call('/api/message/fetch/page/mine', { unreadFirst }, bobToken)).body.data as {
          list: { id: number }[];
        }
      ).list.map((m) => m.id);
    expect(await inboxIds(true)).toEqual([id, directId]);
    expect(await inboxIds(false)).toEqual([directId, id]);
    await server.call('/api/message/read', { id }, bobToken);

    const listed = await server.call('/api/message/fetch/page', { page: 0, size: 20 }, admin);
    const broadcast = (
      listed.body.data as { list: { id: number; readCount: number; userPhone: string | null }[] }
    ).list.find((m) => m.id === id);
    expect(broadcast).toMatchObject({ readCount: 1, userPhone: null });

    expect((await server.call('/api/message/block', { id }, admin)).body.code).toBe(200);
    expect((await unread(aliceToken)).total).toBe(0);
    expect((await server.call('/api/message/read', { id }, aliceToken)).body.code).toBe(404);
    const blockedOnly = await server.call('/api/message/fetch/page', { blocked: true }, admin);
    expect((blockedOnly.body.data as { list: { id: number }[] }).list.map((m) => m.id)).toEqual([id]);
    expect((await server.call('/api/message/unblock', { id }, admin)).body.code).toBe(200);
    expect((await unread(aliceToken)).total).toBe(1);
  });

  it('lists newest or oldest first, by sending or by last change', async () => {
    const ids = async (body: Record<string, unknown>) =>
      (
        (await server.call('/api/message/fetch/page', { size: 100, ...body }, admin)).body.data as {
          list: { id: number }[];
        }
      ).list.map((m) => m.id);
    const newest = await ids({});
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    expect(await ids({ order: 'ascend' })).toEqual([...newest].reverse());
    await server.call('/api/message/update', { id: newest.at(-1), title: '最近修改' }, admin);
    expect((await ids({ sort: 'updatedAt' }))[0]).toBe(newest.at(-1));
  });

  it('update changes only the fields sent', async () => {
    const made = await server.call('/api/message/make', { title: '原标题', content: '原内容' }, admin);
    const id = (made.body.data as { message: { id: number } }).message.id;
    const titled = await server.call('/api/message/update', { id, title: '新标题' }, admin);
    expect(titled.body.data).toMatchObject({ message: { title: '新标题', content: '原内容' } });
    for (const search of ['%', '_', '原%']) {
      const found = await server.call('/api/message/fetch/page', { search }, admin);
      expect((found.body.data as { total: number }).total, search).toBe(0);
    }
    const byWord = await server.call('/api/message/fetch/page', { search: '原内' }, admin);
    expect((byWord.body.data as { total: number }).total).toBeGreaterThanOrEqual(1);
    const nothing = await server.call('/api/message/update', { id }, admin);
    expect(nothing.body.code).toBe(400);
    const missing = await server.call('/api/message/update', { id: 999_999, title: 'x' }, admin);
    expect(missing.body.code).toBe(404);
    const toNobody = await server.call('/api/message/make', { title: 'x', content: 'y', userId: 999_999 }, admin);
    expect(toNobody.body.code).toBe(404);
  });

  it('unread messages reach the operator as header-bell notices', async () => {
    const me = (await server.call('/api/users/fetch/info', {}, admin)).body.data as { user: { id: number } };
    await server.call('/api/message/make', { title: '请处理', content: '有新的反馈', userId: me.user.id }, admin);
    const notices = await server.call('/api/notices/fetch', {}, admin);
    const list = notices.body.data as { type: string; title: string }[];
    expect(list.find((n) => n.title === '请处理')).toMatchObject({ type: 'message' });
    await server.call('/api/message/read/all', {}, admin);
    const after = (await server.call('/api/notices/fetch', {}, admin)).body.data as unknown[];
    expect(after).toHaveLength(0);
  });
});
