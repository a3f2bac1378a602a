import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { runCli } from '../cli';
import { CLI_ADDRESS } from './admin-cli';

describe('recovery from the command line', () => {
  let server: TestServer;
  let printed: string[];
  const cli = (...args: string[]) => {
    printed = [];
    const { db, dialect } = server.app.services;
    return runCli(args, server.config, {
      print: (line) => printed.push(line),
      open: () => ({ db, dialect, close: async () => {} }),
    });
  };
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('lists administrators, makes an account one and resets an administrator password, each in the operation log', async () => {
    const { token, phone } = await server.initAdmin();
    expect(await cli('admin', 'list')).toBe(0);
    expect(printed.join('\n')).toContain(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    expect(printed.join('\n')).not.toContain(phone);

    const user = await server.addUser();
    expect(await cli('admin', 'grant', user.phone)).toBe(0);
    expect(printed.join('\n')).toContain('设为管理员');
    const granted = await server.app.services.db
      .selectFrom('users')
      .select('is_admin')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(granted.is_admin).toBe(1);
    expect(await cli('admin', 'list')).toBe(0);
    expect(printed[0]).toContain('共 2 位管理员');

    expect(await cli('admin', 'reset-password', phone)).toBe(0);
    const password = printed[1].trim();
    expect(password).toMatch(/^[A-Za-z2-9]{10}$/);
    // The old session is gone; the new password signs in and must be changed first.
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(401);
    const fresh = await server.login(phone, password);
    expect((await server.call('/api/users/fetch/page', {}, fresh)).body.code).toBe(428);

    const rows = await server.app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('ip', '=', CLI_ADDRESS)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, r.actor_id])).toEqual([
      ['users.update.admin', null],
      ['users.reset.password', null],
    ]);
    expect(JSON.parse(rows[1].after ?? '{}')).toMatchObject({ via: 'command-line' });
    expect(JSON.stringify(rows)).not.toContain(password);
  });

  it('refuses unknown accounts, non-administrators and bad usage with a non-zero exit', async () => {
    expect(await cli('admin', 'grant', '13000000009')).toBe(1);
    expect(printed[0]).toContain('找不到账号');
    const user = await server.addUser();
    expect(await cli('admin', 'reset-password', String(user.id))).toBe(1);
    expect(printed[0]).toContain('不是管理员');
    expect(await cli('admin', 'frobnicate')).toBe(2);
    expect(printed.join('\n')).toContain('reset-password');
  });
});
