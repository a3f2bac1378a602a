import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { throttleRules } from '../src/core/login-throttle';
import { passwordChecks } from '../src/core/passwords';
import { digest, startServer, type TestServer } from './harness';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

type SignedIn = { token: string; user: { id: number; mustChangePassword: boolean } };

describe('a password someone else chose must be changed first', () => {
  async function expectOnlyChangeAllowed(phone: string, password: string) {
    const signedIn = await server.call('/api/users/login', { phone, password: await digest(password) });
    expect(signedIn.body.code).toBe(200);
    const { token, user } = signedIn.body.data as SignedIn;
    expect(user.mustChangePassword).toBe(true);
    // Everything else answers 428 with a message the app can show, until the password changes.
    for (const [path, body] of [
      ['/api/users/update/info', { nickname: '改名' }],
      ['/api/message/fetch/page/unread', { page: 0, size: 10 }],
    ] as const) {
      const refused = await server.call(path, body, token);
      expect(refused.body).toMatchObject({ code: 428, data: null });
      expect(refused.body.message).toContain('修改');
    }
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(200);
    const changed = await server.call(
      '/api/users/update/password',
      { old: await digest(password), refresh: await digest('Changed123') },
      token,
    );
    expect(changed.body.code).toBe(200);
    expect((await server.call('/api/users/update/info', { nickname: '改名' }, token)).body.code).toBe(200);
    const info = await server.call('/api/users/fetch/info', {}, token);
    expect((info.body.data as SignedIn).user.mustChangePassword).toBe(false);
  }

  it('an account made by 生成账号 can only change its password until it has', async () => {
    const { token } = await server.initAdmin();
    const generated = await server.call('/api/users/generate', { count: 1 }, token);
    const [account] = (generated.body.data as { accounts: { phone: string; password: string }[] }).accounts;
    await expectOnlyChangeAllowed(account.phone, account.password);
  });

  it("after an operator's reset the old password and sessions are gone, and the new one must be changed", async () => {
    const { token } = await server.initAdmin();
    const user = await server.addUser();
    const old = await server.login(user.phone, user.password);
    const reset = await server.call('/api/users/reset/password', { id: user.id, reason: '测试' }, token);
    expect(reset.body.code).toBe(200);
    const { password } = reset.body.data as { password: string };
    expect((await server.call('/api/users/fetch/info', {}, old)).body.code).toBe(401);
    const stale = await server.call('/api/users/login', { phone: user.phone, password: await digest(user.password) });
    expect(stale.body.code).toBe(401);
    const audit = await server.app.services.db.selectFrom('audit_log').selectAll().execute();
    expect(JSON.stringify(audit)).not.toContain(password);
    await expectOnlyChangeAllowed(user.phone, password);
    const self = await server.call('/api/users/reset/password', { id: 1, reason: '测试' }, token);
    expect(self.body.code).toBe(403);
  });
});

describe('registration and existing phones', () => {
  const register = async (phone: string, password: string) =>
    server.call('/api/users/register', { phone, password: await digest(password), app: 'tailor' });

  it('probing a taken phone is throttled exactly like guessing its password at sign-in', async () => {
    const { phone } = await server.initAdmin();
    const before = passwordChecks.count;
    const codes: number[] = [];
    for (let i = 0; i < throttleRules.pair.maxFailures + 3; i++)
      codes.push((await register(phone, `guess${i}`)).body.code);
    expect(codes.slice(0, throttleRules.pair.maxFailures).every((c) => c === 409)).toBe(true);
    expect(codes.slice(throttleRules.pair.maxFailures).every((c) => c === 429)).toBe(true);
    expect(passwordChecks.count - before).toBe(throttleRules.pair.maxFailures);
    // The same counters as sign-in: the pair is now locked there too.
    const signIn = await server.call('/api/users/login', { phone, password: await digest('Admin12345') });
    expect(signIn.body.code).toBe(429);
    // A free phone still registers from this address.
    expect((await register('13600000001', 'Fresh12345')).body.code).toBe(200);
  });

  it("the owner's right password on a taken phone signs them in instead of creating anything", async () => {
    const user = await server.addUser();
    const answer = await register(user.phone, user.password);
    expect(answer.body.code).toBe(200);
    expect((answer.body.data as SignedIn).user.id).toBe(user.id);
    const users = await server.app.services.db.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(1);
  });
});
