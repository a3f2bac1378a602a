import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, nextPhone, startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Data = Record<string, unknown>;
const data = <T = Data>(answer: { body: { data?: unknown } }) => answer.body.data as T;
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;

async function register(phone = nextPhone()) {
  const answer = await server.call('/api/users/register', {
    phone,
    password: await digest('App12345'),
    app: 'tailor',
    channel: 'huawei',
  });
  expect(answer.body.code).toBe(200);
  return { id: data<{ user: { id: number } }>(answer).user.id, phone };
}

describe('phone privacy', () => {
  it('masks phones in the list, the detail, the ledger and password resets; a reveal is logged', async () => {
    const user = await register();
    const list = data<{ list: { id: number; phone: string }[] }>(
      await server.call('/api/users/fetch/page', { search: user.phone }, admin),
    );
    expect(list.list.find((u) => u.id === user.id)?.phone).toBe(masked(user.phone));
    const detail = data<{ user: { phone: string; name: string } }>(
      await server.call('/api/users/fetch/detail', { id: user.id }, admin),
    );
    expect(detail.user.phone).toBe(masked(user.phone));
    await server.call('/api/users/update/coins', { id: user.id, delta: 5, reason: '测试' }, admin);
    const ledger = data<{ list: { userPhone: string }[] }>(
      await server.call('/api/coin/fetch/page', { userId: user.id }, admin),
    );
    expect(ledger.list[0].userPhone).toBe(masked(user.phone));
    const reset = data<{ phone: string }>(
      await server.call('/api/users/reset/password', { id: user.id, reason: '测试' }, admin),
    );
    expect(reset.phone).toBe(masked(user.phone));

    const reveal = await server.call('/api/users/fetch/phone', { id: user.id }, admin);
    expect(reveal.body.code).toBe(200);
    expect(data(reveal)).toEqual({ phone: user.phone });
    const rows = await server.app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'users.fetch.phone')
      .where('target_id', '=', String(user.id))
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].target_type).toBe('user');
    expect(JSON.stringify(rows[0])).not.toContain(user.phone);
    expect((await server.call('/api/users/fetch/phone', { id: 2_000_000 }, admin)).body.code).toBe(404);
  });

  it('masks phones in the users export', async () => {
    const user = await register();
    const answer = await fetch(`${server.url}/api/users/export`, {
      method: 'POST',
      headers: { token: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ search: user.phone }),
    });
    expect(answer.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await answer.arrayBuffer());
    const cells = JSON.stringify(book.worksheets[0].getSheetValues());
    expect(cells).toContain(masked(user.phone));
    expect(cells).not.toContain(user.phone);
  });

  it('generates accounts in the reserved 100 range, which registration refuses', async () => {
    const answer = await server.call('/api/users/generate', { count: 3 }, admin);
    const { accounts } = data<{ accounts: { phone: string; password: string }[] }>(answer);
    expect(accounts.every((a) => /^100\d{8}$/.test(a.phone))).toBe(true);
    await server.login(accounts[0].phone, accounts[0].password);
    const taken = await server.call('/api/users/register', {
      phone: '10012345678',
      password: await digest('App12345'),
      app: 'tailor',
    });
    expect(taken.body.code).toBe(400);
    expect(taken.body.message).toContain('保留');
  });
});
