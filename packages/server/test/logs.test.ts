import { connect } from 'node:net';
import { maskPhone } from '@appdesk/contract/format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { digest, singleInstanceOnly, startServer, type TestServer } from './harness';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

type Line = { msg?: string; path?: string; code?: number; userId?: number; phone?: string; statusCode?: number };
const lines = (): Line[] => server.logs.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((l) => JSON.parse(l));
const completed = (path: string) => lines().filter((l) => l.msg === 'request completed' && l.path === path);

describe('request log lines', () => {
  it('a failed sign-in and a 403 carry the result code and who, masked', async () => {
    const { phone } = await server.initAdmin();
    await server.call('/api/users/login', { phone, password: await digest('wrong') });
    const failed = completed('/api/users/login').at(-1);
    expect(failed).toMatchObject({ statusCode: 200, code: 401, phone: maskPhone(phone) });

    const user = await server.addUser();
    const token = await server.login(user.phone, user.password);
    expect(completed('/api/users/login').at(-1)).toMatchObject({
      code: 200,
      userId: user.id,
      phone: maskPhone(user.phone),
    });
    await server.call('/api/users/fetch/page', { page: 0, size: 10 }, token);
    expect(completed('/api/users/fetch/page').at(-1)).toMatchObject({ statusCode: 200, code: 403, userId: user.id });
  });

  it('a whole sign-in and admin flow logs no password digest, no token, no hash and no whole phone', async () => {
    const secrets = new Set<string>();
    const phones = new Set<string>();
    const keep = (answer: { body: { data?: unknown } }) => {
      const data = answer.body.data as { token?: string } | null | undefined;
      if (data?.token) secrets.add(data.token);
      return answer;
    };
    const pw = async (password: string) => {
      const d = await digest(password);
      secrets.add(password);
      secrets.add(d);
      return d;
    };
    const { phone: adminPhone, password: adminPassword, token: adminToken } = await server.initAdmin();
    phones.add(adminPhone);
    secrets.add(adminToken);
    await pw(adminPassword);
    keep(await server.call('/api/users/login', { phone: adminPhone, password: await pw('Wrong1234') }));
    keep(await server.call('/api/users/login', { phone: '13912340000', password: await pw('Nobody123') }));
    phones.add('13912340000');
    const registered = keep(
      await server.call('/api/users/register', {
        phone: '13712345678',
        password: await pw('Reg123456'),
        app: 'tailor',
      }),
    );
    phones.add('13712345678');
    keep(
      await server.call('/api/users/register', { phone: adminPhone, password: await pw('Taken1234'), app: 'tailor' }),
    );
    const userToken = (registered.body.data as { token: string }).token;
    await server.call('/api/users/fetch/page', { page: 0, size: 10 }, userToken);
    const generated = await server.call('/api/users/generate', { count: 2 }, adminToken);
    const accounts = (generated.body.data as { accounts: { id: number; phone: string; password: string }[] }).accounts;
    for (const a of accounts) {
      phones.add(a.phone);
      await pw(a.password);
    }
    const first = keep(
      await server.call('/api/users/login', { phone: accounts[0].phone, password: await pw(accounts[0].password) }),
    );
    const firstToken = (first.body.data as { token: string }).token;
    await server.call('/api/users/update/info', { nickname: '新名字' }, firstToken);
    await server.call(
      '/api/users/update/password',
      { old: await pw(accounts[0].password), refresh: await pw('Fresh12345') },
      firstToken,
    );
    const reset = await server.call('/api/users/reset/password', { id: accounts[1].id, reason: '测试' }, adminToken);
    await pw((reset.body.data as { password: string }).password);
    await server.call('/api/users/fetch/page', { page: 0, size: 10, search: adminPhone }, adminToken);
    await server.call('/api/loginlog/fetch/page', { page: 0, size: 10, phone: adminPhone }, adminToken);
    await server.call('/api/users/logout', {}, userToken);

    const text = server.logs.join('');
    expect(completed('/api/users/login').length).toBeGreaterThanOrEqual(3);
    for (const secret of secrets) expect(text).not.toContain(secret);
    for (const phone of phones) expect(text).not.toContain(phone);
    expect(text).not.toContain('$argon2');
    expect(text).not.toMatch(/"(token|password|authorization|cookie)"\s*:/i);
  });
});

describe('an upload the client abandons', () => {
  it.runIf(singleInstanceOnly('nginx reads a request whole before an instance sees it; one abandoned never arrives'))(
    'is logged as the client’s, not as a database outage',
    async () => {
      const { token } = await server.initAdmin();
      const { hostname, port } = new URL(server.url);
      const boundary = 'abandoned';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`;
      // Announces 5 MB, sends the first 64 KB of it, then goes away.
      const socket = connect({ host: hostname, port: Number(port) });
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/finder/single HTTP/1.1\r\nHost: ${hostname}\r\ntoken: ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n${head}`,
      );
      socket.write(Buffer.alloc(64 * 1024, 7));
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.destroy();
      await expect.poll(() => lines().some((l) => l.msg === '客户端中断了请求'), { timeout: 5_000 }).toBe(true);
      expect(lines().filter((l) => l.msg?.includes('数据库暂不可用'))).toEqual([]);
      // And the server serves on.
      expect((await server.call('/api/files/fetch/page', { page: 0, size: 5 }, token)).body.code).toBe(200);
    },
  );
});

describe('登录日志', () => {
  it('keeps a row for every attempt and lists them for admins, newest first, filtered by result and phone', async () => {
    const { phone, token } = await server.initAdmin();
    const user = await server.addUser();
    await server.call('/api/users/login', { phone: user.phone, password: await digest('wrong') }, '');
    await server.call('/api/users/login', { phone: '13900001111', password: await digest('wrong') });
    await server.login(user.phone, user.password);
    await server.app.services.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', user.id).execute();
    await server.call('/api/users/login', { phone: user.phone, password: await digest(user.password) });

    type Entry = { id: number; phone: string; success: boolean; reason: string; code: number; ip: string };
    const page = async (filter: object) => {
      const answer = await server.call('/api/loginlog/fetch/page', { page: 0, size: 20, ...filter }, token);
      expect(answer.body.code).toBe(200);
      return answer.body.data as { list: Entry[]; total: number };
    };
    const all = await page({});
    // initAdmin's sign-in, then the four above.
    expect(all.total).toBe(5);
    expect(all.list.map((e) => e.id)).toEqual([...all.list.map((e) => e.id)].sort((a, b) => b - a));
    expect(all.list.map((e) => e.reason)).toEqual(['blocked', 'success', 'unknown_phone', 'wrong_password', 'success']);
    expect(all.list[0]).toMatchObject({ code: 403, success: false, phone: maskPhone(user.phone), ip: '127.0.0.1' });
    expect(JSON.stringify(all)).not.toContain(user.phone);
    const failures = await page({ result: 'failure' });
    expect(failures.list.map((e) => e.reason)).toEqual(['blocked', 'unknown_phone', 'wrong_password']);
    const successes = await page({ result: 'success' });
    expect(successes.total).toBe(2);
    const mine = await page({ phone: user.phone });
    expect(mine.list.map((e) => e.reason)).toEqual(['blocked', 'success', 'wrong_password']);
    const adminOnly = await page({ phone, result: 'success' });
    expect(adminOnly.total).toBe(1);
  });
});
