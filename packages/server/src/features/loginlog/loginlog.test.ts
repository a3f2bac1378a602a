import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: { token: string; phone: string };
beforeAll(async () => {
  server = await startServer();
  admin = await server.initAdmin();
}, 60_000);
afterAll(async () => {
  await server.close();
});

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const signIn = (phone: string, password: string) =>
  fetch(`${server.url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': chrome },
    body: JSON.stringify({ phone, password }),
  }).then((r) => r.json() as Promise<{ code: number }>);

type Entry = { phone: string; success: boolean; reason: string; reasonLabel: string; device: string | null };

describe('登录日志', () => {
  it('lists each attempt with its result in words and the device as people read it', async () => {
    const user = await server.addUser();
    expect((await signIn(user.phone, await digest('wrong'))).code).toBe(401);
    expect((await signIn(user.phone, await digest(user.password))).code).toBe(200);
    const answer = await server.call('/api/loginlog/fetch/page', { page: 0, size: 10, phone: user.phone }, admin.token);
    const { list } = answer.body.data as { list: Entry[] };
    expect(list).toMatchObject([
      { success: true, reasonLabel: '登录成功', device: 'Chrome 120 · Windows 10' },
      { success: false, reasonLabel: '密码错误', device: 'Chrome 120 · Windows 10' },
    ]);
    const failures = await server.call(
      '/api/loginlog/fetch/page',
      { page: 0, size: 10, phone: user.phone, result: 'failure' },
      admin.token,
    );
    expect((failures.body.data as { total: number }).total).toBe(1);
    const future = await server.call(
      '/api/loginlog/fetch/page',
      { page: 0, size: 10, from: new Date(Date.now() + 86_400_000).toISOString() },
      admin.token,
    );
    expect((future.body.data as { total: number }).total).toBe(0);
  });

  it('exports the filtered attempts as .xlsx with phones masked', async () => {
    const user = await server.addUser();
    await signIn(user.phone, await digest('wrong'));
    const answer = await fetch(`${server.url}/api/loginlog/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin.token },
      body: JSON.stringify({ phone: user.phone }),
    });
    expect(answer.headers.get('content-disposition')).toContain(encodeURIComponent('登录日志'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await answer.arrayBuffer());
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    const cells = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(cells[2]).toBe(`${user.phone.slice(0, 3)}****${user.phone.slice(7)}`);
    expect(cells.slice(4, 6)).toEqual(['失败', '密码错误']);
    expect(cells[7]).toBe('Chrome 120 · Windows 10');
    expect(JSON.stringify(cells)).not.toContain(user.phone);
    // The export itself is in the operation log.
    const logged = await server.call(
      '/api/audit/fetch/page',
      { page: 0, size: 5, action: 'loginlog.export' },
      admin.token,
    );
    expect((logged.body.data as { list: { actionLabel: string }[] }).list[0].actionLabel).toBe('导出登录日志');
  });
});
