import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { newUserRow } from '../../core/new-user';
import { createSession } from '../../core/sessions';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  await ok('/api/apps/make', { code: 'quote', name: '名言' });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Message = { id: number; app: string; title: string };

describe('in-app messages per app', () => {
  it('each app’s inbox shows its own messages; the console sends to one app and filters by it', async () => {
    const { id: userId } = await db()
      .insertInto('users')
      .values(newUserRow({ phone: '19900000292', password_hash: 'x', app: 'quote' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = await createSession(db(), userId, { ip: null, userAgent: null });
    const toQuote = (
      await ok<{ message: Message }>('/api/message/make', { app: 'quote', title: '名言上新', content: '新的名言' })
    ).message;
    const toTailor = (await ok<{ message: Message }>('/api/message/make', { title: '截屏更新', content: '长截图更快' }))
      .message;
    expect([toQuote.app, toTailor.app]).toEqual(['quote', 'tailor']);

    // This call's list sits beside `code` (placement: root).
    const unread = async (app?: string) => {
      const answer = await server.call(
        '/api/message/fetch/page/unread',
        { page: 0, size: 100, ...(app ? { app } : {}) },
        token,
      );
      expect(answer.body.code).toBe(200);
      return (answer.body as unknown as { list: Message[] }).list.map((m) => m.id);
    };
    expect(await unread('quote')).toEqual([toQuote.id]);
    expect(await unread('tailor')).toEqual([toTailor.id]);
    // An old client names no app: the first app's inbox.
    expect(await unread()).toEqual([toTailor.id]);
    // A message of another app is not there for this app's call.
    const across = await server.call('/api/message/read', { app: 'tailor', id: toQuote.id }, token);
    expect(across.body.code).toBe(404);
    await ok('/api/message/read', { app: 'quote', id: toQuote.id }, token);
    expect(await unread('quote')).toEqual([]);
    expect(await unread('tailor')).toEqual([toTailor.id]);
    expect((await ok<{ count: number }>('/api/message/read/all', { app: 'tailor' }, token)).count).toBe(1);

    const listed = async (app?: string) =>
      (
        await ok<{ list: Message[] }>('/api/message/fetch/page', { page: 0, size: 50, ...(app ? { app } : {}) })
      ).list.map((m) => m.id);
    expect(await listed('quote')).toEqual([toQuote.id]);
    expect(await listed('tailor')).toEqual([toTailor.id]);
    expect((await listed()).sort()).toEqual([toQuote.id, toTailor.id].sort());

    // A message sent on a record's behalf goes to the record's app, not the app the account
    // registered in: a 滚动截屏 user's feedback sent from 名言 is answered in 名言.
    const { id: tailorUser } = await db()
      .insertInto('users')
      .values(newUserRow({ phone: '19900000293', password_hash: 'x', app: 'tailor' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const tailorToken = await createSession(db(), tailorUser, { ip: null, userAgent: null });
    const { feedback } = await ok<{ feedback: { id: number } }>(
      '/api/feedback/make',
      { app: 'quote', content: '希望增加每日名言推送', deviceId: 'device-quote-1' },
      tailorToken,
    );
    await ok('/api/feedback/reply', { id: feedback.id, reply: '已加入计划' });
    const inbox = async (app: string) =>
      (await server.call('/api/message/fetch/page/unread', { app, page: 0, size: 100 }, tailorToken))
        .body as unknown as {
        list: Message[];
      };
    expect((await inbox('quote')).list.map((m) => m.title)).toEqual(['你的意见反馈有了回复']);
    expect((await inbox('tailor')).list.map((m) => m.title)).not.toContain('你的意见反馈有了回复');

    // The operation log names the app by its name, never its code.
    const log = await ok<{ list: { action: string; targetId: string; changes: { field: string; after: string }[] }[] }>(
      '/api/audit/fetch/page',
      { page: 0, size: 20 },
    );
    const made = log.list.find((e) => e.action === 'message.make' && e.targetId === String(toQuote.id));
    expect(made?.changes.find((c) => c.field === 'app')?.after).toBe('名言');
  });
});
