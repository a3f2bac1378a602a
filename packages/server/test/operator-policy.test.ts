/**
 * 等保二级 for operators (docs/permissions.md#等保二级口令与会话): the password rule an operator's
 * new password must meet, checked on the plain text sent beside the digest; and the console's idle
 * timeout, separate from the apps' sliding sessions. The idle time is made by moving a session's
 * last use back in the database, not by waiting.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { hashToken } from '../src/core/sessions';
import { digest, startServer, type TestServer } from './harness';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const MINUTE = 60_000;
const db = () => server.app.services.db;

/** An own password change, sending the plain text when given. */
async function change(token: string, old: string, next: string, plain?: string) {
  const body = {
    old: await digest(old),
    refresh: await digest(next),
    ...(plain === undefined ? {} : { plainPassword: plain }),
  };
  return (await server.call('/api/users/update/password', body, token)).body;
}

const signsInWith = async (phone: string, password: string) =>
  (await server.call('/api/users/login', { phone, password: await digest(password) })).body.code === 200;

describe('an operator’s new password meets the operator rule', () => {
  it('is refused without its plain text, with a plain text that is not the digest’s, and for each rule broken', async () => {
    const { token, phone, password } = await server.initAdmin();
    const refusals: [string, string | undefined, unknown][] = [
      [
        'Strong12345',
        undefined,
        '操作员设置密码时需同时提交新密码原文（plainPassword），以检查密码规则；请刷新页面后重试',
      ],
      ['Strong12345', 'Other12345', '新密码原文与新密码摘要不一致，请重新输入新密码'],
      ['Ab1!xyz', 'Ab1!xyz', '密码不符合操作员密码规则：长度不足：至少 10 位，现在 7 位'],
      [
        'lowercase123',
        'lowercase123',
        '密码不符合操作员密码规则：字符种类不足：现在只有小写字母、数字，还需加入大写字母、符号中的 1 类',
      ],
      [
        'abcdefghijkl',
        'abcdefghijkl',
        '密码不符合操作员密码规则：字符种类不足：现在只有小写字母，还需加入大写字母、数字、符号中的 2 类',
      ],
      [`Ab${phone}`, `Ab${phone}`, '密码不符合操作员密码规则：不能包含本人手机号'],
      [
        `a${phone}`,
        `a${phone}`,
        '密码不符合操作员密码规则：字符种类不足：现在只有小写字母、数字，还需加入大写字母、符号中的 1 类；不能包含本人手机号',
      ],
      ['x'.repeat(65), 'x'.repeat(65), expect.stringContaining('长度超出：最多 64 位，现在 65 位')],
    ];
    for (const [next, plain, message] of refusals) {
      expect(await change(token, password, next, plain)).toMatchObject({ code: 400, message });
    }
    // Nothing changed: the old password still signs in, and no row was written.
    expect(await signsInWith(phone, password)).toBe(true);
    const rows = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'users.update.password')
      .execute();
    expect(rows).toEqual([]);
  });

  it('a password meeting it is kept, and the change is in the operation log in words, without the password', async () => {
    const { token, phone, password } = await server.initAdmin();
    const other = await server.login(phone, password);
    const next = 'Lan-2026-desk';
    expect(await change(token, password, next, next)).toMatchObject({ code: 200 });
    expect(await signsInWith(phone, next)).toBe(true);
    expect((await server.call('/api/users/fetch/info', {}, other)).body.code).toBe(401);

    const page = await server.call(
      '/api/audit/fetch/page',
      { page: 0, size: 20, action: 'users.update.password' },
      token,
    );
    const [entry] = (page.body.data as { list: Record<string, unknown>[] }).list;
    expect(entry).toMatchObject({
      actionLabel: '修改密码',
      actorPhone: expect.stringContaining('****'),
      ip: expect.any(String),
    });
    const words = (entry.changes as { label: string; after: string }[]).map((c) => `${c.label}：${c.after}`);
    expect(words).toEqual(
      expect.arrayContaining(['修改方式：本人修改密码', '密码规则：已按操作员密码规则检查', '下线的会话数：1']),
    );
    const stored = JSON.stringify(await db().selectFrom('audit_log').selectAll().execute());
    expect(stored).not.toContain(next);
    expect(stored).not.toContain(await digest(next));
  });

  it('an operator’s first-sign-in change of a reset password is checked the same way', async () => {
    const { token } = await server.initAdmin();
    const second = await server.addUser({ isAdmin: true });
    const reset = await server.call('/api/users/reset/password', { id: second.id, reason: '新同事' }, token);
    const initial = (reset.body.data as { password: string }).password;
    const own = await server.login(second.phone, initial);
    expect(await change(own, initial, 'short1A', 'short1A')).toMatchObject({ code: 400 });
    expect(await change(own, initial, 'onlyletters', 'onlyletters')).toMatchObject({
      code: 400,
      message: expect.stringContaining('字符种类不足'),
    });
    expect(await change(own, initial, 'Chosen#2026', 'Chosen#2026')).toMatchObject({ code: 200 });
    const info = await server.call('/api/users/fetch/info', {}, own);
    expect((info.body.data as { user: { mustChangePassword: boolean } }).user.mustChangePassword).toBe(false);
    const page = await server.call(
      '/api/audit/fetch/page',
      { page: 0, size: 5, action: 'users.update.password' },
      token,
    );
    const [entry] = (page.body.data as { list: { changes: { label: string; before: string; after: string }[] }[] })
      .list;
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: '修改方式', after: '首次登录修改初始密码' }),
        expect.objectContaining({ label: '需修改密码', before: '是', after: '否' }),
      ]),
    );
  });

  it('the apps’ users are not held to it and need send no plain text', async () => {
    await server.initAdmin();
    const user = await server.addUser();
    const token = await server.login(user.phone, user.password);
    expect(await change(token, user.password, 'simple1234')).toMatchObject({ code: 200 });
    expect(await signsInWith(user.phone, 'simple1234')).toBe(true);
  });

  it('the setup page’s first administrator is checked when its plain text is sent', async () => {
    const init = (password: string, plainPassword: string) =>
      digest(password).then((d) =>
        server.call('/api/allocation/init', {
          phone: '13800000000',
          password: d,
          plainPassword,
          title: '站',
          slogen: '',
        }),
      );
    expect((await init('weakpass1', 'weakpass1')).body).toMatchObject({
      code: 400,
      message:
        '密码不符合操作员密码规则：长度不足：至少 10 位，现在 9 位；字符种类不足：现在只有小写字母、数字，还需加入大写字母、符号中的 1 类',
    });
    expect((await init('Admin12345', 'Admin54321')).body.code).toBe(400);
    expect((await server.call('/api/allocation/fetch')).body.data).toMatchObject({ allocation: { isInit: false } });
    expect((await init('Admin12345', 'Admin12345')).body.code).toBe(200);
  });
});

describe('a console session unused for the configured time ends', () => {
  /** Moves a session's last use back by `ms`. */
  const idleFor = (token: string, ms: number) =>
    db()
      .updateTable('sessions')
      .set({ last_used_at: Date.now() - ms })
      .where('token_hash', '=', hashToken(token))
      .execute();
  const consoleFlag = async (token: string) =>
    (await db().selectFrom('sessions').select('console').where('token_hash', '=', hashToken(token)).executeTakeFirst())
      ?.console;
  const info = async (token: string) => (await server.call('/api/users/fetch/info', {}, token)).body;

  it('after 30 minutes by default, never early: the last use is known to the minute', async () => {
    expect(server.config.consoleIdleMs).toBe(30 * MINUTE);
    const { token } = await server.initAdmin();
    // Signed in, not yet used on the console: not a console session.
    expect(await consoleFlag(token)).toBe(0);
    expect((await server.call('/api/users/fetch/page', { page: 0, size: 1 }, token)).body.code).toBe(200);
    expect(await consoleFlag(token)).toBe(1);
    // Recorded 30 min 50 s ago: it may have been used up to a minute after that, so it lives (and is touched).
    await idleFor(token, 30 * MINUTE + 50_000);
    expect(await info(token)).toMatchObject({ code: 200 });
    // Unused for over 31 minutes by the record: over 30 for certain. Ends on any call, a user call too,
    // and every call the console then makes says why (they race at a page load).
    await idleFor(token, 31 * MINUTE + 1_000);
    for (let i = 0; i < 2; i++) {
      expect(await info(token)).toMatchObject({
        code: 402,
        message: '长时间未操作，已退出登录，请重新登录',
        data: null,
      });
    }
    expect((await server.call('/api/users/fetch/page', { page: 0, size: 1 }, token)).body.code).toBe(402);
  });

  it('shows a console session’s real end in the session lists, and drops an ended one from them', async () => {
    const { token, phone, password } = await server.initAdmin();
    const other = await server.login(phone, password);
    for (const t of [token, other]) await server.call('/api/operators/fetch/me', {}, t);
    await idleFor(token, 40 * MINUTE);
    expect((await info(token)).code).toBe(402);
    const listed = await server.call('/api/sessions/fetch/page', { page: 0, size: 20 }, other);
    const sessions = (listed.body.data as { list: { id: number; expiresAt: string }[] }).list;
    // Only the live one, ending 31 minutes after its last use (to the minute), not in 7 days.
    expect(sessions).toHaveLength(1);
    const end = Date.parse(sessions[0].expiresAt);
    expect(end).toBeGreaterThan(Date.now() + 30 * MINUTE);
    expect(end).toBeLessThanOrEqual(Date.now() + 31 * MINUTE);
  });

  it('leaves the apps’ sessions to their 7-day sliding expiry, an operator’s own app session too', async () => {
    const { phone, password } = await server.initAdmin();
    const appSession = await server.login(phone, password);
    const user = await server.addUser();
    const userSession = await server.login(user.phone, user.password);
    await idleFor(appSession, 3 * 60 * MINUTE);
    await idleFor(userSession, 3 * 24 * 60 * MINUTE);
    expect((await info(appSession)).code).toBe(200);
    expect((await info(userSession)).code).toBe(200);
    expect(await consoleFlag(appSession)).toBe(0);
  });

  it('takes its time from the settings', async () => {
    const saved = process.env.APPDESK_CONSOLE_IDLE_MINUTES;
    process.env.APPDESK_CONSOLE_IDLE_MINUTES = '5';
    try {
      expect(loadConfig().consoleIdleMs).toBe(5 * MINUTE);
      process.env.APPDESK_CONSOLE_IDLE_MINUTES = '0';
      expect(() => loadConfig()).toThrow('APPDESK_CONSOLE_IDLE_MINUTES must be a positive integer');
    } finally {
      if (saved === undefined) delete process.env.APPDESK_CONSOLE_IDLE_MINUTES;
      else process.env.APPDESK_CONSOLE_IDLE_MINUTES = saved;
    }
    await server.close();
    server = await startServer({ consoleIdleMs: 5 * MINUTE });
    const { token } = await server.initAdmin();
    expect((await server.call('/api/operators/fetch/me', {}, token)).body.code).toBe(200);
    await idleFor(token, 6 * MINUTE + 1_000);
    expect(await server.call('/api/users/fetch/page', { page: 0, size: 1 }, token)).toMatchObject({
      body: { code: 402, message: '长时间未操作，已退出登录，请重新登录' },
    });
  });
});
