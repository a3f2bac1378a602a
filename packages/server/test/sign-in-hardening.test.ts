import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli';
import { parseTrustProxy } from '../src/config';
import { throttleRules } from '../src/core/login-throttle';
import { passwordChecks } from '../src/core/passwords';
import { MAX_SESSIONS_PER_USER } from '../src/core/sessions';
import { digest, singleInstanceOnly, startServer, type TestServer } from './harness';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A sign-in as sent through a proxy that appended `via` (the address it saw) to X-Forwarded-For. */
async function signInVia(s: TestServer, phone: string, password: string, via?: string, token = '') {
  const headers: Record<string, string> = { 'content-type': 'application/json', token };
  if (via) headers['x-forwarded-for'] = `10.${Math.floor(Math.random() * 250)}.0.1, ${via}`;
  return s.raw('/api/users/login', {
    method: 'POST',
    headers,
    body: JSON.stringify({ phone, password: await digest(password) }),
  });
}

describe('parallel guessing', () => {
  it('200 concurrent wrong sign-ins reach at most the limit of password checks, then even the right one gets 429', async () => {
    server = await startServer();
    const { phone, password } = await server.initAdmin();
    const s = server;
    const wrong = await digest('wrong-password');
    const before = passwordChecks.count;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => s.call('/api/users/login', { phone, password: wrong })),
    );
    const checks = passwordChecks.count - before;
    const codes = answers.map((a) => a.body.code);
    expect(checks).toBeLessThanOrEqual(throttleRules.pair.maxFailures);
    expect(codes.filter((c) => c === 401)).toHaveLength(checks);
    expect(codes.filter((c) => c === 429)).toHaveLength(200 - checks);
    const right = await s.call('/api/users/login', { phone, password: await digest(password) });
    expect(right.body.code).toBe(429);
    expect(passwordChecks.count - before).toBe(checks);
    // The 登录日志 keeps every checked attempt, but a flood of refusals only once a minute per address
    // and instance (behind nginx, once per instance that refused).
    const logged = await s.app.services.db.selectFrom('login_log').select(['reason']).execute();
    expect(logged.filter((r) => r.reason === 'wrong_password')).toHaveLength(checks);
    const locked = logged.filter((r) => r.reason === 'locked').length;
    expect(locked).toBeGreaterThanOrEqual(1);
    expect(locked).toBeLessThanOrEqual(s.apps.length);
  });
});

describe('registration as a way round the limits', () => {
  it('wrong passwords for a taken phone sent as registrations with fresh Idempotency-Keys are counted and locked like sign-ins', async () => {
    server = await startServer();
    const { phone } = await server.initAdmin();
    const s = server;
    const register = async (key: string) =>
      s.raw('/api/users/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ phone, password: await digest(`guess-${key}`), app: 'tailor', channel: 'huawei' }),
      });
    const before = passwordChecks.count;
    const codes: number[] = [];
    for (let i = 0; i < throttleRules.pair.maxFailures + 3; i++) codes.push((await register(`guess-${i}`)).body.code);
    // Each refusal rolls its transaction back; the attempt, its 登录日志 row and the quota stay counted.
    expect(codes.slice(0, throttleRules.pair.maxFailures)).toEqual(Array(throttleRules.pair.maxFailures).fill(409));
    expect(codes.slice(throttleRules.pair.maxFailures)).toEqual([429, 429, 429]);
    expect(passwordChecks.count - before).toBe(throttleRules.pair.maxFailures);
    const logged = await s.app.services.db.selectFrom('login_log').select('reason').execute();
    expect(logged.filter((r) => r.reason === 'phone_taken')).toHaveLength(throttleRules.pair.maxFailures);
  });
});

describe('lockout design', () => {
  it('a guesser at one address locks only that pair: the owner signs in from another address', async () => {
    server = await startServer({ trustProxy: 1 });
    const { phone, password } = await server.initAdmin();
    for (let i = 0; i < throttleRules.pair.maxFailures; i++) {
      expect((await signInVia(server, phone, 'guess', '203.0.113.66')).body.code).toBe(401);
    }
    expect((await signInVia(server, phone, password, '203.0.113.66')).body.code).toBe(429);
    expect((await signInVia(server, phone, password, '198.51.100.7')).body.code).toBe(200);
  });

  it('a parallel burst from one address costs that address: the phone-wide counter counts only what passed it', async () => {
    server = await startServer({ trustProxy: 1 });
    const s = server;
    const { phone, password } = await s.initAdmin();
    const before = passwordChecks.count;
    const answers = await Promise.all(Array.from({ length: 200 }, () => signInVia(s, phone, 'guess', '203.0.113.66')));
    const checks = passwordChecks.count - before;
    expect(answers.filter((a) => a.body.code === 401)).toHaveLength(checks);
    const counters = await s.app.services.db.selectFrom('login_attempts').select(['key', 'failures']).execute();
    const count = (key: string) => Number(counters.find((c) => c.key === key)?.failures ?? 0);
    // The pair stopped the burst: neither the address nor the phone counted what it refused. The
    // pair itself counts every attempt that passed its lock check, the checked ones and those in
    // flight when it locked: how many were in flight is up to scheduling (none on a loaded machine,
    // where the burst arrives one by one), so at least the checked ones.
    expect(count(`pair:${phone}@203.0.113.66`)).toBeGreaterThanOrEqual(checks);
    expect(count('ip:203.0.113.66')).toBe(checks);
    expect(count(`phone:${phone}`)).toBe(checks);
    expect((await signInVia(s, phone, password, '198.51.100.7')).body.code).toBe(200);
  });

  it('guessers from many addresses lock the phone; the owner with a live session of theirs still signs in; the CLI unlocks', async () => {
    server = await startServer({ trustProxy: 1 });
    const s = server;
    const { phone, password, token } = await s.initAdmin();
    const { maxFailures } = throttleRules.phone;
    const perAddress = throttleRules.pair.maxFailures;
    const addresses = Array.from({ length: Math.ceil(maxFailures / perAddress) }, (_, i) => `203.0.113.${i + 1}`);
    await Promise.all(
      addresses.map(async (address) => {
        for (let i = 0; i < perAddress; i++) await signInVia(s, phone, 'guess', address);
      }),
    );
    // A fresh address without a session: the phone-wide lock, with a message that names the way out.
    const stranger = await signInVia(s, phone, password, '192.0.2.200');
    expect(stranger.body.code).toBe(429);
    expect(stranger.body.message).toContain('已登录过的设备');
    // Someone else's live session does not count as the owner's device.
    const other = await s.addUser();
    const otherToken = await s.login(other.phone, other.password);
    expect((await signInVia(s, phone, password, '192.0.2.201', otherToken)).body.code).toBe(429);
    // The owner's browser still holds a live session of this account: it signs in.
    const owner = await signInVia(s, phone, password, '192.0.2.202', token);
    expect(owner.body.code).toBe(200);
    // The command-line recovery clears the phone's lock for every device.
    const printed: string[] = [];
    const db = s.app.services;
    const exit = await runCli(['unlock', phone], s.config, {
      print: (line) => printed.push(line),
      open: () => ({ db: db.db, dialect: db.dialect, close: async () => {}, onConnectionError: () => {} }),
    });
    expect(exit).toBe(0);
    expect(printed.join('\n')).toContain('已解除');
    expect((await signInVia(s, phone, password, '192.0.2.203')).body.code).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  it('reads hop counts and proxy lists; true means one hop, never the client-written left-most entry', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 172.16.0.0/12')).toEqual(['10.0.0.1', '172.16.0.0/12']);
    expect(() => parseTrustProxy('everything')).toThrow(/TRUST_PROXY/);
  });

  it('with one hop, rotating X-Forwarded-For keeps the per-address limit and records the proxy-appended address', async () => {
    const saved = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = 'true';
    try {
      server = await startServer();
    } finally {
      if (saved === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = saved;
    }
    const s = server;
    const { phone, password } = await s.initAdmin();
    const client = '203.0.113.50';
    // Sessions and the operation log carry the address the proxy appended.
    const signedIn = await signInVia(s, phone, password, client);
    const token = (signedIn.body.data as { token: string }).token;
    await s.raw('/api/allocation/update/title', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token, 'x-forwarded-for': `6.6.6.6, ${client}` },
      body: JSON.stringify({ title: '新标题' }),
    });
    const db = s.app.services.db;
    const session = await db.selectFrom('sessions').select('ip').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(session.ip).toBe(client);
    const audit = await db.selectFrom('audit_log').select('ip').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.ip).toBe(client);
    // Spraying many phones with a fresh left-most address each time: the address still fills up.
    const codes: number[] = [];
    for (let i = 0; i < throttleRules.ip.maxFailures + 1; i++) {
      const answer = await signInVia(s, `1370000${String(i).padStart(4, '0')}`, 'guess', client);
      codes.push(answer.body.code);
    }
    expect(codes.at(-1)).toBe(429);
    expect((await signInVia(s, phone, password, client)).body.code).toBe(429);
  });

  it.runIf(
    singleInstanceOnly(
      "the test's own address and nginx's are both 127.0.0.1, so a list of proxies cannot tell them apart",
    ),
  )('with a list of proxy addresses, only those peers are believed', async () => {
    for (const [trusted, expected] of [
      [['127.0.0.1'], '203.0.113.77'],
      [['10.9.9.9'], '127.0.0.1'],
    ] as const) {
      server = await startServer({ trustProxy: [...trusted] });
      const { phone, password } = await server.initAdmin();
      expect((await signInVia(server, phone, password, '203.0.113.77')).body.code).toBe(200);
      const row = await server.app.services.db
        .selectFrom('sessions')
        .select('ip')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(row.ip).toBe(expected);
      await server.close();
      server = undefined;
    }
  });
});

describe('throttle counters', () => {
  it('counters whose window and lock are over are forgotten, so spraying phones leaves no lasting rows', async () => {
    server = await startServer();
    const db = server.app.services.db;
    const hourAgo = Date.now() - 2 * 60 * 60 * 1000;
    await db
      .insertInto('login_attempts')
      .values([
        { key: 'pair:13900000000@192.0.2.1', failures: 3, window_start: hourAgo, locked_until: null },
        { key: 'phone:13900000000', failures: 100, window_start: hourAgo, locked_until: Date.now() + 60_000 },
      ])
      .execute();
    await server.call('/api/users/login', { phone: '13900000001', password: await digest('x') });
    const keys = (await db.selectFrom('login_attempts').select('key').execute()).map((r) => r.key).sort();
    expect(keys).toContain('phone:13900000000');
    expect(keys).not.toContain('pair:13900000000@192.0.2.1');
  });
});

describe('sessions per account', () => {
  it(`keeps the newest ${MAX_SESSIONS_PER_USER} live sessions; the oldest go first`, async () => {
    server = await startServer();
    const { phone, password, token: first } = await server.initAdmin();
    const tokens = [first];
    for (let i = 0; i < MAX_SESSIONS_PER_USER + 1; i++) tokens.push(await server.login(phone, password));
    const live = await server.app.services.db.selectFrom('sessions').select('id').execute();
    expect(live).toHaveLength(MAX_SESSIONS_PER_USER);
    expect((await server.call('/api/users/fetch/info', {}, tokens[0])).body.code).toBe(401);
    expect((await server.call('/api/users/fetch/info', {}, tokens[1])).body.code).toBe(401);
    for (const t of tokens.slice(2)) expect((await server.call('/api/users/fetch/info', {}, t)).body.code).toBe(200);
  });
});
