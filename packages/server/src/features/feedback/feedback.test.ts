import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tinyPng } from '../../../test/harness';
import { PER_ADDRESS, PER_DEVICE } from './routes';

let server: TestServer;
let admin: string;
let user: { id: number; token: string };
let other: { id: number; token: string };
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  const a = await server.addUser();
  const b = await server.addUser();
  user = { id: a.id, token: await server.login(a.phone, a.password) };
  other = { id: b.id, token: await server.login(b.phone, b.password) };
});
afterAll(async () => {
  await server.close();
});

type Row = { id: number; status: string; reply: string | null; images: { id: number; url: string }[]; user: string };
let devices = 0;
const device = () => `device-${process.pid}-${++devices}`;
const base = () => ({
  app: 'tailor',
  content: '截图拼接时闪退',
  deviceId: device(),
  deviceModel: 'Mi 14',
  osVersion: 'Android 14',
});
const upload = async (token = '') => {
  const answer = await server.upload('/api/feedback/upload', 'file', tinyPng, 'shot.png', token);
  expect(answer.body.code).toBe(200);
  return answer.body.data as { id: number; url: string };
};
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const page = (filter: object) => ok<{ list: Row[]; total: number }>('/api/feedback/fetch/page', filter);

describe('feedback v1', () => {
  it('takes a signed-in user’s feedback with images, and the reply reaches them as an unread message', async () => {
    const images = [await upload(user.token), await upload(user.token)];
    const { feedback } = await ok<{ feedback: Row }>(
      '/api/feedback/make',
      {
        ...base(),
        content: '导出长图失败 #signed',
        images: images.map((i) => i.id),
        version: '2.3.1',
        channel: 'huawei',
      },
      user.token,
    );
    expect(feedback.images.map((i) => i.url)).toEqual(images.map((i) => i.url));
    const listed = await page({ search: '#signed' });
    expect(listed.list).toHaveLength(1);
    expect(listed.list[0]).toMatchObject({ status: 'pending', reply: null, userId: user.id });
    expect(listed.list[0].user).toMatch(/^\d{3}\*{4}\d{4}$/);
    // The image is in use: the uploads page may not delete it.
    const removal = await server.call('/api/files/remove', { id: images[0].id }, admin);
    expect([removal.body.code, removal.body.message]).toEqual([409, expect.stringContaining('意见反馈')]);

    const unreadBefore = await server.call('/api/message/fetch/page/unread', { page: 0, size: 1024 }, user.token);
    const replied = await ok<{ feedback: Row; messageSent: boolean }>('/api/feedback/reply', {
      id: feedback.id,
      reply: '已在 2.3.2 修复，请更新',
    });
    expect(replied.messageSent).toBe(true);
    expect(replied.feedback).toMatchObject({ status: 'handled', reply: '已在 2.3.2 修复，请更新' });
    const unread = await server.call('/api/message/fetch/page/unread', { page: 0, size: 1024 }, user.token);
    expect(unread.body.total).toBe((unreadBefore.body.total as number) + 1);
    const message = (unread.body.list as { title: string; content: string }[])[0];
    expect(message.title).toBe('你的意见反馈有了回复');
    expect(message.content).toContain('已在 2.3.2 修复，请更新');
    // The other user sees neither the feedback nor the message.
    const theirs = await ok<{ list: Row[] }>('/api/feedback/fetch/mine', {}, other.token);
    expect(theirs.list).toEqual([]);
    const mine = await ok<{ list: Row[] }>('/api/feedback/fetch/mine', {}, user.token);
    expect(mine.list.map((f) => [f.id, f.reply])).toEqual([[feedback.id, '已在 2.3.2 修复，请更新']]);
    const otherUnread = await server.call('/api/message/fetch/page/unread', { page: 0, size: 1024 }, other.token);
    expect(otherUnread.body.total).toBe(0);
  });

  it('needs a contact when not signed in; a reply then sends no message', async () => {
    const refused = await server.call('/api/feedback/make', base());
    expect([refused.body.code, refused.body.message]).toEqual([400, expect.stringContaining('联系方式')]);
    const { feedback } = await ok<{ feedback: Row }>('/api/feedback/make', { ...base(), contact: 'QQ 10001' }, '');
    const handled = await ok<{ feedback: Row }>('/api/feedback/handle', { id: feedback.id });
    expect(handled.feedback.status).toBe('handled');
    const replied = await ok<{ messageSent: boolean }>('/api/feedback/reply', { id: feedback.id, reply: '谢谢' });
    expect(replied.messageSent).toBe(false);
  });

  it('refuses five images, 2,001 characters, and images that are not the caller’s', async () => {
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => upload(user.token)));
    const tooMany = await server.call('/api/feedback/make', { ...base(), images: five.map((i) => i.id) }, user.token);
    expect([tooMany.body.code, tooMany.body.message]).toEqual([400, expect.stringContaining('最多上传 4 张图片')]);
    const long = await server.call('/api/feedback/make', { ...base(), content: '长'.repeat(2001) }, user.token);
    expect([long.body.code, long.body.message]).toEqual([400, expect.stringContaining('2000')]);
    await ok(
      '/api/feedback/make',
      { ...base(), content: '长'.repeat(2000), images: five.slice(0, 4).map((i) => i.id) },
      user.token,
    );

    // An operator's upload (or anything not an image of the caller) cannot be attached.
    const adminFile = await server.upload('/api/finder/single', 'file', tinyPng, 'a.png', admin);
    const foreign = await server.call(
      '/api/feedback/make',
      { ...base(), images: [(adminFile.body.data as { id: number }).id] },
      user.token,
    );
    expect([foreign.body.code, foreign.body.message]).toEqual([400, expect.stringContaining('不存在或已过期')]);
    const missing = await server.call('/api/feedback/make', { ...base(), images: [999_999] }, user.token);
    expect(missing.body.code).toBe(400);
    const twice = await server.call('/api/feedback/make', { ...base(), images: [five[4].id, five[4].id] }, user.token);
    expect(twice.body.code).toBe(400);
  });

  it('filters by status, app, time and keyword', async () => {
    await ok('/api/feedback/make', { ...base(), content: '筛选用 #filter-a', contact: 'a@b.cn' }, '');
    const all = await page({ search: '#filter-a' });
    expect(all.total).toBe(1);
    expect((await page({ search: '#filter-a', status: 'handled' })).total).toBe(0);
    expect((await page({ search: '#filter-a', status: 'pending', app: 'tailor' })).total).toBe(1);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await page({ search: '#filter-a', from: future })).total).toBe(0);
    expect((await page({ search: 'a@b.cn' })).total).toBe(1);
    const bad = await server.call('/api/feedback/fetch/page', { status: 'done' }, admin);
    expect(bad.body.code).toBe(400);
  });

  it('limits submissions per device and per address, in Chinese', async () => {
    const deviceId = device();
    for (let i = 0; i < PER_DEVICE; i += 1) await ok('/api/feedback/make', { ...base(), deviceId }, user.token);
    const refused = await server.call('/api/feedback/make', { ...base(), deviceId }, user.token);
    expect(refused.body.code).toBe(429);
    expect(refused.body.message).toMatch(/^反馈提交过于频繁（每台设备每小时最多 5 条），请 \d+ 分钟后再试$/);

    const used = Number(
      (
        await server.app.services.db
          .selectFrom('login_attempts')
          .select('failures')
          .where('key', '=', 'feedback:ip:127.0.0.1')
          .executeTakeFirstOrThrow()
      ).failures,
    );
    for (let i = used; i < PER_ADDRESS; i += 1) await ok('/api/feedback/make', { ...base() }, user.token);
    const network = await server.call('/api/feedback/make', base(), user.token);
    expect([network.body.code, network.body.message]).toEqual([
      429,
      expect.stringContaining('当前网络提交反馈过于频繁'),
    ]);
  });
});
