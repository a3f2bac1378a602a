import { randomBytes } from 'node:crypto';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, startServer, type TestServer } from '../../../test/harness';
import { runCli } from '../../cli';
import { grantsChanged } from '../../core/grants';
import { throttleRules } from '../../core/login-throttle';
import { sealedUnderCurrent, secretKeysFromEnv } from '../../core/secret-box';
import { CLI_ADDRESS } from '../../ops/admin-cli';
import { rotateSecrets } from '../../ops/rotate-secrets';

/**
 * Two-factor sign-in for operators (issue 30), over HTTP on the real database: an enrolled
 * operator's password alone yields no session, codes and recovery codes are good once, wrong codes
 * lock like wrong passwords, a role can require it, and every change is in the operation log.
 */
const key = randomBytes(32).toString('base64');
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ secretKeys: secretKeysFromEnv({ APPDESK_SECRETS_KEY: key }) });
  await server.initAdmin();
});
afterAll(() => server.close());

const db = () => server.app.services.db;
type Data = Record<string, unknown>;
const data = <T = Data>(answer: { body: { data?: unknown } }) => answer.body.data as T;

/** The authenticator's code `steps` time steps from now (a code is good for its step and one either side). */
const codeOf = (secret: string, steps = 0) => new TOTP({ secret }).generate({ timestamp: Date.now() + steps * 30_000 });
/** A six-digit code that is none of the ones the server accepts now. */
const wrongCodeOf = (secret: string) => {
  const good = new Set([-1, 0, 1].map((s) => codeOf(secret, s)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!good.has(candidate)) return candidate;
  }
};

interface Operator {
  id: number;
  phone: string;
  password: string;
  token: string;
}

async function operator(): Promise<Operator> {
  const user = await server.addUser({ isAdmin: true });
  return { ...user, token: await server.login(user.phone, user.password) };
}

/** Binds an authenticator through the API, as 个人中心 does: the secret and the recovery codes. */
async function enrol(who: Operator): Promise<{ secret: string; recoveryCodes: string[] }> {
  const made = await server.call('/api/totp/make', {}, who.token);
  expect(made.body.code).toBe(200);
  const { secret, uri } = data<{ secret: string; uri: string }>(made);
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(uri).toContain(`secret=${secret}`);
  const confirmed = await server.call('/api/totp/confirm', { code: codeOf(secret) }, who.token);
  expect([confirmed.body.code, confirmed.body.message]).toEqual([200, '两步验证已开启，其他设备上的登录已退出']);
  return { secret, recoveryCodes: data<{ recoveryCodes: string[] }>(confirmed).recoveryCodes };
}

const firstStep = async (who: Operator) =>
  server.call('/api/users/login', { phone: who.phone, password: await digest(who.password) });

async function challengeOf(who: Operator): Promise<string> {
  const answer = await firstStep(who);
  expect(answer.body.code).toBe(432);
  return data<{ challenge: string }>(answer).challenge;
}

const loginReasons = async (userId: number) =>
  (await db().selectFrom('login_log').select('reason').where('user_id', '=', userId).orderBy('id').execute()).map(
    (r) => r.reason,
  );

describe('signing in with a second factor', () => {
  it("an enrolled operator's password alone yields no token and reaches no admin endpoint; the code does", async () => {
    const who = await operator();
    const { secret } = await enrol(who);
    // The session that enrolled stays; the factor is on from now.
    expect((await server.call('/api/operators/fetch/me', {}, who.token)).body.code).toBe(200);

    const first = await firstStep(who);
    expect(first.body.code).toBe(432);
    expect(first.body.message).toBe('请输入验证器 App 上的 6 位验证码');
    const held = data<{ challenge: string; expiresAt: string; token?: string }>(first);
    expect(held.token).toBeUndefined();
    expect(Date.parse(held.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(first.text).not.toContain(secret);
    // The challenge is no session.
    expect((await server.call('/api/operators/fetch/me', {}, held.challenge)).body.code).toBe(401);

    // The current step was spent by the enrolment: the next one's code is good now too.
    const second = await server.call('/api/users/login/totp', { challenge: held.challenge, code: codeOf(secret, 1) });
    expect([second.body.code, second.body.message]).toEqual([200, '登录成功']);
    const signedIn = data<{ token: string; user: { id: number; isAdmin: boolean } }>(second);
    expect(signedIn.user).toMatchObject({ id: who.id, isAdmin: true });
    expect((await server.call('/api/operators/fetch/me', {}, signedIn.token)).body.code).toBe(200);
    // A challenge is good for one sign-in.
    const again = await server.call('/api/users/login/totp', { challenge: held.challenge, code: codeOf(secret, 1) });
    expect(again.body.code).toBe(401);

    expect(await loginReasons(who.id)).toEqual(['success', 'second_factor', 'success']);
    const signIns = await db()
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'users.login')
      .where('target_id', '=', String(who.id))
      .orderBy('id')
      .execute();
    expect(JSON.parse(signIns.at(-1)?.after ?? '{}')).toMatchObject({ secondFactor: 'code' });
  });

  it('a code is good once: replayed, or older than one already used, it is refused', async () => {
    const who = await operator();
    const { secret } = await enrol(who);
    const code = codeOf(secret, 1);
    const ok = await server.call('/api/users/login/totp', { challenge: await challengeOf(who), code });
    expect(ok.body.code).toBe(200);
    const replayed = await server.call('/api/users/login/totp', { challenge: await challengeOf(who), code });
    expect([replayed.body.code, replayed.body.message]).toEqual([401, '该验证码已经用过，请等验证器显示下一个验证码']);
    const older = await server.call('/api/users/login/totp', {
      challenge: await challengeOf(who),
      code: codeOf(secret),
    });
    expect(older.body.code).toBe(401);
    expect((await loginReasons(who.id)).filter((r) => r === 'wrong_code')).toHaveLength(2);
  });

  it('each recovery code signs in once, typed in any case and with or without dashes', async () => {
    const who = await operator();
    const { recoveryCodes } = await enrol(who);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    // Only digests are kept.
    const stored = JSON.stringify(await db().selectFrom('totp_recovery_codes').selectAll().execute());
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replaceAll('-', ''));

    const use = async (recoveryCode: string) =>
      server.call('/api/users/login/totp', { challenge: await challengeOf(who), recoveryCode });
    expect((await use(recoveryCodes[0])).body.code).toBe(200);
    const twice = await use(recoveryCodes[0]);
    expect([twice.body.code, twice.body.message]).toEqual([401, '恢复码不正确或已经用过']);
    expect((await use(recoveryCodes[1].toUpperCase().replaceAll('-', ' '))).body.code).toBe(200);
    const status = await server.call('/api/totp/fetch/status', {}, who.token);
    expect(data(status)).toMatchObject({ enabled: true, recoveryCodesLeft: 8 });
    expect(await loginReasons(who.id)).toContain('recovery_code');
    const signIn = await db()
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'users.login')
      .where('target_id', '=', String(who.id))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(signIn.after ?? '{}')).toMatchObject({ secondFactor: 'recovery' });
  });

  it('ten wrong codes lock like ten wrong passwords, which a right password does not forgive; unlock clears it', async () => {
    const who = await operator();
    const { secret } = await enrol(who);
    const wrong = wrongCodeOf(secret);
    const limit = throttleRules.pair.maxFailures;
    let challenge = await challengeOf(who);
    for (let i = 0; i < limit; i++) {
      // Halfway, the right password again: a new challenge, but the wrong codes still count.
      if (i === limit / 2) challenge = await challengeOf(who);
      const answer = await server.call('/api/users/login/totp', { challenge, code: wrong });
      expect([i, answer.body.code]).toEqual([i, 401]);
    }
    const locked = await server.call('/api/users/login/totp', { challenge, code: codeOf(secret, 1) });
    expect(locked.body.code).toBe(429);
    expect(locked.body.message).toMatch(/登录失败次数过多，请 \d+ 分钟后再试/);
    expect((await loginReasons(who.id)).filter((r) => r === 'wrong_code')).toHaveLength(limit);
    // The command line's unlock clears the codes' counters too.
    expect(await runCli(['unlock', who.phone], server.config, { print: () => {}, open: handle })).toBe(0);
    const after = await server.call('/api/users/login/totp', { challenge, code: codeOf(secret, 1) });
    expect(after.body.code).toBe(200);
  });
});

/** The test server's own database, for the command line. */
const handle = () => ({ db: db(), dialect: server.app.services.dialect, close: async () => {} });

describe('a role that requires it', () => {
  it('an operator not enrolled reaches no admin endpoint (433) until they enrol; apps users are unaffected', async () => {
    const role = await db().selectFrom('roles').select('id').where('builtin', '=', 'super').executeTakeFirstOrThrow();
    const who = await operator();
    const user = await server.addUser();
    await db().updateTable('roles').set({ require_totp: 1 }).where('id', '=', role.id).execute();
    grantsChanged();
    try {
      const refused = await server.call('/api/operators/fetch/me', {}, who.token);
      expect([refused.body.code, refused.body.message]).toEqual([433, '你的角色要求开启两步验证：请先绑定验证器 App']);
      expect((await server.call('/api/users/fetch/page', {}, who.token)).body.code).toBe(433);
      // Signing in again gives the same enrol-only session.
      const fresh = await server.login(who.phone, who.password);
      expect((await server.call('/api/audit/fetch/page', {}, fresh)).body.code).toBe(433);
      const status = await server.call('/api/totp/fetch/status', {}, fresh);
      expect(data(status)).toMatchObject({ enabled: false, required: true, available: true });
      await enrol({ ...who, token: fresh });
      expect((await server.call('/api/operators/fetch/me', {}, fresh)).body.code).toBe(200);
      // An app's user signs in with the password alone as ever.
      expect(
        (await server.call('/api/users/fetch/info', {}, await server.login(user.phone, user.password))).body.code,
      ).toBe(200);
    } finally {
      await db().updateTable('roles').set({ require_totp: 0 }).where('id', '=', role.id).execute();
      grantsChanged();
    }
  });
});

describe('changing it', () => {
  it('turning it off and renewing recovery codes need a current code or the password; each change is logged in words', async () => {
    const who = await operator();
    const { secret, recoveryCodes } = await enrol(who);
    const wrong = await server.call('/api/totp/disable', { password: await digest('not-the-password') }, who.token);
    expect([wrong.body.code, wrong.body.message]).toEqual([400, '登录密码不正确']);
    const badCode = await server.call('/api/totp/update/recovery', { code: wrongCodeOf(secret) }, who.token);
    expect(badCode.body.code).toBe(400);
    const renewed = await server.call('/api/totp/update/recovery', { code: codeOf(secret, 1) }, who.token);
    expect(renewed.body.code).toBe(200);
    const fresh = data<{ recoveryCodes: string[] }>(renewed).recoveryCodes;
    expect(fresh).toHaveLength(10);
    // The old codes no longer sign in; the new ones do.
    const old = await server.call('/api/users/login/totp', {
      challenge: await challengeOf(who),
      recoveryCode: recoveryCodes[0],
    });
    expect(old.body.code).toBe(401);
    const off = await server.call('/api/totp/disable', { password: await digest(who.password) }, who.token);
    expect([off.body.code, off.body.message]).toEqual([200, '两步验证已关闭']);
    // The password alone signs in again.
    expect((await firstStep(who)).body.code).toBe(200);

    const rows = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'like', 'totp.%')
      .where('target_id', '=', String(who.id))
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, r.actor_id])).toEqual([
      ['totp.enable', who.id],
      ['totp.recovery', who.id],
      ['totp.disable', who.id],
    ]);
    const logged = JSON.stringify(rows);
    for (const code of [...recoveryCodes, ...fresh]) expect(logged).not.toContain(code);
    expect(logged).not.toContain(secret);
    // The operation log reads them in words, about the operator's account (用户手机号 finds them).
    const admin = await server.login('13800000000', 'Admin12345');
    const page = await server.call('/api/audit/fetch/page', { userPhone: who.phone, size: 20 }, admin);
    type Row = {
      actionLabel: string;
      targetLabel: string;
      targetName: string | null;
      changes: { label: string; after: string | null }[];
    };
    const list = data<{ list: Row[] }>(page).list;
    expect(list.map((r) => r.actionLabel)).toEqual(
      expect.arrayContaining(['开启两步验证', '重新生成恢复码', '关闭两步验证']),
    );
    const turnedOff = list.find((r) => r.actionLabel === '关闭两步验证');
    expect(turnedOff?.targetLabel).toBe('用户');
    expect(turnedOff?.targetName).toBe(`${who.phone.slice(0, 3)}****${who.phone.slice(7)}`);
    expect(turnedOff?.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: '两步验证' }),
        expect.objectContaining({ label: '身份确认', after: '密码' }),
      ]),
    );
  });

  it('`npm run admin -- reset-totp` removes the second factor, recorded as done from the command line', async () => {
    const who = await operator();
    const { secret } = await enrol(who);
    let printed: string[] = [];
    const cli = (...args: string[]) => {
      printed = [];
      return runCli(args, server.config, { print: (line) => printed.push(line), open: handle });
    };
    expect(await cli('admin', 'reset-totp', who.phone)).toBe(0);
    expect(printed.join('\n')).toContain('已重置');
    expect(printed.join('\n')).not.toContain(who.phone);
    expect((await firstStep(who)).body.code).toBe(200);
    const row = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('ip', '=', CLI_ADDRESS)
      .where('target_id', '=', String(who.id))
      .executeTakeFirstOrThrow();
    expect([row.action, row.target_type, row.actor_id]).toEqual(['totp.disable', 'user', null]);
    expect(JSON.parse(row.after ?? '{}')).toEqual({ twoFactor: false, via: 'command-line' });
    expect(JSON.stringify(row)).not.toContain(secret);
    // Nothing to reset, or nobody: said so.
    expect(await cli('admin', 'reset-totp', String(who.id))).toBe(0);
    expect(printed[0]).toContain('没有开启两步验证');
    expect(await cli('admin', 'reset-totp', '13000000009')).toBe(1);
    expect(printed[0]).toContain('找不到账号');
  });

  it('apps users cannot enrol, and a key rotation seals the secrets again', async () => {
    const user = await server.addUser();
    const token = await server.login(user.phone, user.password);
    const refused = await server.call('/api/totp/make', {}, token);
    expect([refused.body.code, refused.body.message]).toEqual([400, '两步验证仅供后台操作员使用']);

    const who = await operator();
    await enrol(who);
    const rotated = secretKeysFromEnv({
      APPDESK_SECRETS_KEY: randomBytes(32).toString('base64'),
      APPDESK_SECRETS_KEY_PREVIOUS: key,
    });
    if (!rotated) throw new Error('no keys');
    const printed: string[] = [];
    expect(await rotateSecrets(db(), { secretKeys: rotated }, (line) => printed.push(line))).toBe(0);
    const sealed = await db().selectFrom('totp_factors').select('sealed_secret').execute();
    expect(sealed.length).toBeGreaterThan(0);
    for (const row of sealed) expect(sealedUnderCurrent(rotated, row.sealed_secret)).toBe(true);
    expect(printed.join('\n')).toContain(`共 ${sealed.length} 项`);
  });
});

describe('without APPDESK_SECRETS_KEY', () => {
  it('enrolment is refused in words, and the status says it is not available', async () => {
    const bare = await startServer();
    try {
      await bare.initAdmin();
      const token = await bare.login('13800000000', 'Admin12345');
      const status = await bare.call('/api/totp/fetch/status', {}, token);
      expect(data(status)).toMatchObject({ enabled: false, available: false, recoveryCodesLeft: 0 });
      const made = await bare.call('/api/totp/make', {}, token);
      expect(made.body.code).toBe(400);
      expect(made.body.message).toContain('未配置密钥加密的主密钥');
      expect(await bare.app.services.db.selectFrom('totp_factors').selectAll().execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
