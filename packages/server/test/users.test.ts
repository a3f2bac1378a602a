import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreconciledUsers } from '../src/core/ledger';
import { digest, nextPhone, startServer, type TestServer, tinyPng } from './harness';

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

async function register(phone = nextPhone(), password = 'App12345') {
  const answer = await server.call('/api/users/register', {
    phone,
    password: await digest(password),
    app: 'tailor',
    channel: 'huawei',
  });
  expect(answer.body.code).toBe(200);
  const { token, user } = data<{ token: string; user: { id: number } }>(answer);
  return { token, id: user.id, phone, password };
}

describe('app accounts', () => {
  it('registers with app and channel; a taken phone answers 409', async () => {
    const user = await register();
    const detail = data<{ user: Data }>(await server.call('/api/users/fetch/detail', { id: user.id }, admin));
    expect(detail.user).toMatchObject({
      phone: `${user.phone.slice(0, 3)}****${user.phone.slice(7)}`,
      app: 'tailor',
      channel: 'huawei',
      coins: 0,
      isAdmin: false,
    });
    const again = await server.call('/api/users/register', {
      phone: user.phone,
      password: await digest('x'),
      app: 'tailor',
    });
    expect(again.body.code).toBe(409);
    expect((await server.call('/api/users/fetch/info', {}, user.token)).body.code).toBe(200);
  });

  it('grants the sign-up coins set in key-values, through the ledger', async () => {
    const now = Date.now();
    await server.app.services.db
      .insertInto('key_values')
      .values({ app: 'tailor', key: 'signup_coins', value: '30', description: '', created_at: now, updated_at: now })
      .execute();
    try {
      const user = await register();
      const rows = await server.app.services.db
        .selectFrom('coin_records')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toMatchObject([{ delta: 30, balance_after: 30, reason: 'register' }]);
    } finally {
      await server.app.services.db.deleteFrom('key_values').execute();
    }
  });

  it('changes the nickname, verifies a new email through the logged link, and takes an avatar', async () => {
    const user = await register();
    const info = await server.call(
      '/api/users/update/info',
      { nickname: '小明', email: 'ming@example.com' },
      user.token,
    );
    expect(data<{ user: Data; emailSent: boolean }>(info)).toMatchObject({
      user: { nickname: '小明', name: '小明', email: null, emailVerified: false },
      emailSent: false,
    });
    const link = server.logs.join('').match(/email\/validate\?token=([A-Za-z0-9_-]+)/);
    expect(link).not.toBeNull();
    const token = link?.[1] as string;
    const validated = await server.call('/api/users/validate/email', { token });
    expect(validated.body).toMatchObject({ code: 200, data: { email: 'ming@example.com' } });
    expect((await server.call('/api/users/validate/email', { token })).body.code).toBe(409);
    const me = data<{ user: Data }>(await server.call('/api/users/fetch/info', {}, user.token));
    expect(me.user).toMatchObject({ email: 'ming@example.com', emailVerified: true });

    const avatar = await server.upload('/api/users/update/avatar', 'avatar', tinyPng, 'me.png', user.token);
    expect(avatar.body.code).toBe(200);
    const url = data<{ user: { avatar: string } }>(avatar).user.avatar;
    const file = await server.raw(url, { method: 'GET' });
    expect(file.status).toBe(200);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('operator tools', () => {
  it('finds a user by part of the phone, by nickname and by id; filters and sorts', async () => {
    const phone = `1865${String(Date.now()).slice(-7)}`;
    const user = await register(phone);
    await server.call('/api/users/update/info', { nickname: '搜索测试员' }, user.token);
    for (const search of [phone.slice(3, 9), phone.slice(0, 2), phone, '测试员', String(user.id)]) {
      const page = data<{ list: { id: number }[]; total: number }>(
        await server.call('/api/users/fetch/page', { page: 0, size: 50, search }, admin),
      );
      expect(
        page.list.map((u) => u.id),
        search,
      ).toContain(user.id);
    }
    // One and two characters match anywhere in a nickname (Chinese names are two or three characters).
    const dong = await register(`1866${String(Date.now()).slice(-7)}`);
    await server.call('/api/users/update/info', { nickname: '董艳' }, dong.token);
    const orange = await register(`1867${String(Date.now()).slice(-7)}`);
    await server.call('/api/users/update/info', { nickname: '小明的橘子' }, orange.token);
    for (const [search, id] of [
      ['艳', dong.id],
      ['董艳', dong.id],
      ['橘子', orange.id],
      ['的', orange.id],
      ['明的', orange.id],
    ] as const) {
      for (const status of ['all', 'normal'] as const) {
        const page = data<{ list: { id: number }[]; total: number }>(
          await server.call('/api/users/fetch/page', { search, status, size: 50 }, admin),
        );
        expect(
          page.list.map((u) => u.id),
          `${search} (${status})`,
        ).toContain(id);
      }
    }
    const renamed = await server.call('/api/users/update/info', { nickname: '改名了' }, dong.token);
    expect(renamed.body.code).toBe(200);
    const gone = data<{ list: { id: number }[] }>(await server.call('/api/users/fetch/page', { search: '艳' }, admin));
    expect(gone.list.map((u) => u.id)).not.toContain(dong.id);
    // Search text is never syntax: FTS operators and LIKE wildcards match only themselves.
    for (const search of ['"*OR 1', '%', '_', '%%%', '___', '1_3']) {
      const none = data<{ total: number }>(await server.call('/api/users/fetch/page', { search }, admin));
      expect(none.total, search).toBe(0);
    }
    const byCoins = data<{ list: { coins: number }[] }>(
      await server.call('/api/users/fetch/page', { sort: 'coins', order: 'descend', size: 100 }, admin),
    );
    const coins = byCoins.list.map((u) => u.coins);
    expect(coins).toEqual([...coins].sort((a, b) => b - a));
  });

  it('blocks (the token dies at once, sign-in answers 403), unblocks, and counts statuses', async () => {
    const user = await register();
    expect((await server.call('/api/users/block', { id: user.id, reason: '测试' }, admin)).body.code).toBe(200);
    expect((await server.call('/api/users/fetch/info', {}, user.token)).body.code).toBe(401);
    const login = await server.call('/api/users/login', { phone: user.phone, password: await digest(user.password) });
    expect(login.body.code).toBe(403);
    const box = data<{ blocked: number; all: number; normal: number; admin: number }>(
      await server.call('/api/users/fetch/page/box', {}, admin),
    );
    expect(box.blocked).toBeGreaterThanOrEqual(1);
    expect(box.all).toBe(box.normal + box.blocked);
    const blockedList = data<{ list: { id: number; status: string }[] }>(
      await server.call('/api/users/fetch/page', { status: 'blocked', size: 100 }, admin),
    );
    expect(blockedList.list.every((u) => u.status === 'blocked')).toBe(true);
    expect(blockedList.list.map((u) => u.id)).toContain(user.id);
    expect((await server.call('/api/users/unblock', { id: user.id, reason: '测试' }, admin)).body.code).toBe(200);
    await server.login(user.phone, user.password);
  });

  it('sets and removes admins, but never the last one or oneself', async () => {
    const adminId = (await server.call('/api/users/fetch/info', {}, admin)).body.data as { user: { id: number } };
    const self = await server.call('/api/users/update/admin', { id: adminId.user.id, isAdmin: false }, admin);
    expect(self.body.code).toBe(403);
    const user = await register();
    const made = await server.call('/api/users/update/admin', { id: user.id, isAdmin: true }, admin);
    expect(data<{ user: Data }>(made).user.isAdmin).toBe(true);
    const second = await server.login(user.phone, user.password);
    // An operator without a role may do nothing yet (roles: 操作员管理); 超级管理员 may do everything.
    expect(
      (await server.call('/api/users/update/admin', { id: adminId.user.id, isAdmin: false }, second)).body.code,
    ).toBe(403);
    const superRole = await server.app.services.db
      .selectFrom('roles')
      .select('id')
      .where('builtin', '=', 'super')
      .executeTakeFirstOrThrow();
    await server.call('/api/operators/update', { id: user.id, roleIds: [superRole.id] }, admin);
    // The new admin removes the first; then nobody can remove the last one left.
    expect(
      (await server.call('/api/users/update/admin', { id: adminId.user.id, isAdmin: false }, second)).body.code,
    ).toBe(200);
    expect((await server.call('/api/users/fetch/info', {}, admin)).body.code).toBe(401);
    const last = await server.call('/api/users/update/admin', { id: user.id, isAdmin: false }, second);
    expect(last.body.code).toBe(403);
    await server.call('/api/users/update/admin', { id: adminId.user.id, isAdmin: true }, second);
    await server.call('/api/operators/update', { id: adminId.user.id, roleIds: [superRole.id] }, second);
    admin = await server.login('13800000000', 'Admin12345');
    expect((await server.call('/api/users/update/admin', { id: user.id, isAdmin: false }, admin)).body.code).toBe(200);
    expect((await server.call('/api/users/fetch/page', {}, second)).body.code).toBe(401);
  });

  it('generates accounts that can sign in; the audit log keeps no password', async () => {
    const answer = await server.call('/api/users/generate', { count: 20, phonePrefix: '17' }, admin);
    expect(answer.body.code).toBe(200);
    const { accounts } = data<{ accounts: { id: number; phone: string; password: string }[] }>(answer);
    expect(accounts).toHaveLength(20);
    expect(new Set(accounts.map((a) => a.phone)).size).toBe(20);
    expect(accounts.every((a) => /^10017\d{6}$/.test(a.phone) && a.password.length >= 8)).toBe(true);
    await server.login(accounts[7].phone, accounts[7].password);
    const audit = await server.app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'users.generate')
      .executeTakeFirstOrThrow();
    for (const account of accounts) expect(audit.after).not.toContain(account.password);
    expect(audit.after).toContain(accounts[0].phone);
  });

  it('balances pass 2^31 on both databases and stop at a stated maximum with a clear message', async () => {
    const user = await register();
    for (const expected of [1e9, 2e9, 3e9]) {
      const grant = await server.call('/api/users/update/coins', { id: user.id, delta: 1e9, reason: '大额' }, admin);
      expect(grant.body.code).toBe(200);
      expect(data(grant)).toMatchObject({ coins: expected });
    }
    const ledger = data<{ list: Data[] }>(await server.call('/api/coin/fetch/page', { userId: user.id }, admin));
    expect(ledger.list[0]).toMatchObject({ delta: 1e9, balanceAfter: 3e9 });
    // Near the maximum, set directly with its ledger row (reaching it by grants would take a thousand calls).
    const db = server.app.services.db;
    await db.updateTable('users').set({ coins: 999_999_999_999 }).where('id', '=', user.id).execute();
    await db
      .insertInto('coin_records')
      .values({
        user_id: user.id,
        delta: 999_999_999_999 - 3e9,
        balance_after: 999_999_999_999,
        reason: 'admin',
        note: '测试：接近上限',
        created_at: Date.now(),
      })
      .execute();
    const over = await server.call('/api/users/update/coins', { id: user.id, delta: 2, reason: '超限' }, admin);
    expect(over.body).toMatchObject({ code: 400, message: '金币余额不能超过 1,000,000,000,000（一万亿）' });
    const exact = await server.call('/api/users/update/coins', { id: user.id, delta: 1, reason: '到顶' }, admin);
    expect(data(exact)).toMatchObject({ coins: 1e12 });
  });

  it('adjusts coins with a reason; the ledger shows it; balances never go below 0', async () => {
    const user = await register();
    const add = await server.call('/api/users/update/coins', { id: user.id, delta: 50, reason: '活动补偿' }, admin);
    expect(data(add)).toMatchObject({ coins: 50 });
    const over = await server.call('/api/users/update/coins', { id: user.id, delta: -51, reason: '扣回' }, admin);
    expect(over.body.code).toBe(409);
    const ledger = data<{ list: Data[]; total: number }>(
      await server.call('/api/coin/fetch/page', { userId: user.id }, admin),
    );
    expect(ledger.total).toBe(1);
    expect(ledger.list[0]).toMatchObject({
      delta: 50,
      balanceAfter: 50,
      reason: 'admin',
      note: '活动补偿',
      userPhone: `${user.phone.slice(0, 3)}****${user.phone.slice(7)}`,
    });
    const other = data<{ coinRecords: Data[]; sessions: Data[] }>(
      await server.call('/api/users/fetch/other/info', { id: user.id }, admin),
    );
    expect(other.coinRecords).toHaveLength(1);
    expect(other.sessions.length).toBeGreaterThanOrEqual(1);
    const byReason = data<{ list: { reason: string }[] }>(
      await server.call('/api/coin/fetch/page', { reason: 'register' }, admin),
    );
    expect(byReason.list.every((r) => r.reason === 'register')).toBe(true);
    const future = data<{ total: number }>(
      await server.call('/api/coin/fetch/page', { from: new Date(Date.now() + 3600_000).toISOString() }, admin),
    );
    expect(future.total).toBe(0);
  });

  it('the ledger and the audit log are append-only in the database itself', async () => {
    const db = server.app.services.db;
    await expect(db.updateTable('coin_records').set({ delta: 1_000_000 }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('coin_records').execute()).rejects.toThrow(/append-only/);
    await expect(db.updateTable('audit_log').set({ action: 'forged' }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    expect(await unreconciledUsers(db)).toEqual([]);
  });

  it('200 concurrent debits against a balance that covers 20 succeed exactly 20 times', async () => {
    const user = await register();
    await server.call('/api/users/update/coins', { id: user.id, delta: 20, reason: '准备' }, admin);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        server.call('/api/users/update/coins', { id: user.id, delta: -1, reason: '并发扣减' }, admin),
      ),
    );
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 200)).toHaveLength(20);
    expect(codes.filter((c) => c === 409)).toHaveLength(180);
    const row = await server.app.services.db
      .selectFrom('users')
      .select('coins')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.coins).toBe(0);
    expect(await unreconciledUsers(server.app.services.db)).toEqual([]);
    const byDelta = async (order: string) =>
      (
        (await server.call('/api/coin/fetch/page', { userId: user.id, sort: 'delta', order, size: 100 }, admin)).body
          .data as { list: { delta: number }[]; total: number }
      ).list.map((r) => r.delta);
    expect((await byDelta('descend'))[0]).toBe(20);
    expect((await byDelta('ascend'))[0]).toBe(-1);
    expect(await byDelta('ascend')).toHaveLength(21);
  });

  it('exports the whole filtered list as .xlsx, not just a page', async () => {
    const answer = await fetch(`${server.url}/api/users/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin },
      body: JSON.stringify({ status: 'all' }),
    });
    expect(answer.headers.get('content-type')).toContain('spreadsheetml');
    expect(answer.headers.get('content-disposition')).toContain(encodeURIComponent('用户列表'));
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes.buffer as ArrayBuffer);
    const sheet = book.worksheets[0];
    const total = data<{ all: number }>(await server.call('/api/users/fetch/page/box', {}, admin)).all;
    expect(sheet.rowCount).toBe(total + 1);
    expect(sheet.getRow(1).getCell(2).value).toBe('手机号');
    // The export writes what the page's presenter shows, in Chinese: status and channel labels.
    expect(['正常', '已封禁']).toContain(sheet.getRow(2).getCell(5).value);
    for (const path of ['/api/coin/export', '/api/audit/export']) {
      const other = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: admin },
        body: '{}',
      });
      expect(other.headers.get('content-type'), path).toContain('spreadsheetml');
      const otherBook = new ExcelJS.Workbook();
      await otherBook.xlsx.load(await other.arrayBuffer());
      const cells = otherBook.worksheets[0].getRow(2).values as unknown[];
      expect(
        cells.some((c) => typeof c === 'string' && /[\u4e00-\u9fa5]/.test(c)),
        path,
      ).toBe(true);
    }
    const log = new ExcelJS.Workbook();
    await log.xlsx.load(
      await (
        await fetch(`${server.url}/api/audit/export`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: admin },
          body: JSON.stringify({ order: 'ascend' }),
        })
      ).arrayBuffer(),
    );
    // Oldest first, as the list shows them when so sorted.
    expect(log.worksheets[0].getRow(2).getCell(4).value).toBe('站点初始化');
  });

  it('lists the operation log with who, what and before/after, filtered by kind', async () => {
    const page = data<{ list: Data[]; total: number }>(
      await server.call('/api/audit/fetch/page', { action: 'users' }, admin),
    );
    expect(page.total).toBeGreaterThan(0);
    expect(page.list.every((e) => String(e.action).startsWith('users.'))).toBe(true);
    const oldest = data<{ list: Data[] }>(await server.call('/api/audit/fetch/page', { order: 'ascend' }, admin));
    expect(oldest.list[0].action).toBe('allocation.init');
    const blocks = data<{ list: Data[] }>(await server.call('/api/audit/fetch/page', { action: 'users.block' }, admin));
    expect(blocks.list[0]).toMatchObject({
      before: { status: 'normal' },
      after: { status: 'blocked' },
      actorName: '管理员',
    });
  });
});
