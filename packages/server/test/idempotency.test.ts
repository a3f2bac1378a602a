/**
 * Idempotency-Key (issue 7, done-when 3): a write an app may retry runs once per key and caller,
 * sent twice or twenty times at once, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_WINDOW_MS } from '../src/http/idempotency';
import { type Answer, digest, nextPhone, startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(() => server.close());

function send(path: string, body: unknown, key: string | undefined, token = admin): Promise<Answer> {
  return server.raw(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      token,
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: JSON.stringify(body),
  });
}

async function balance(userId: number) {
  const row = await server.app.services.db
    .selectFrom('users')
    .select('coins')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.coins);
}

async function ledgerRows(userId: number) {
  return server.app.services.db.selectFrom('coin_records').select('id').where('user_id', '=', userId).execute();
}

describe('Idempotency-Key', () => {
  it('the same coin adjustment sent twice with one key debits once and answers the first result', async () => {
    const user = await server.addUser();
    expect(
      (await send('/api/users/update/coins', { id: user.id, delta: 100, reason: '充值' }, undefined)).body.code,
    ).toBe(200);
    const body = { id: user.id, delta: -30, reason: '扣除' };
    const first = await send('/api/users/update/coins', body, 'key-twice-1');
    const second = await send('/api/users/update/coins', body, 'key-twice-1');
    expect(first.body).toMatchObject({ code: 200, data: { coins: 70 } });
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance(user.id)).toBe(70);
    expect(await ledgerRows(user.id)).toHaveLength(2);
    // One operation-log row for the one adjustment that happened.
    const audits = await server.app.services.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'users.update.coins')
      .where('target_id', '=', String(user.id))
      .execute();
    expect(audits).toHaveLength(2);
  });

  it('twenty copies sent at once with one key debit once; all get the same answer', async () => {
    const user = await server.addUser();
    await send('/api/users/update/coins', { id: user.id, delta: 1000, reason: '充值' }, undefined);
    const body = { id: user.id, delta: -10, reason: '同时扣除' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send('/api/users/update/coins', body, 'key-burst-1')),
    );
    for (const a of answers) expect(a.body).toEqual(answers[0]?.body);
    expect(answers[0]?.body).toMatchObject({ code: 200, data: { coins: 990 } });
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await balance(user.id)).toBe(990);
    expect(await ledgerRows(user.id)).toHaveLength(2);
  });

  it('without a key every call runs (the header is opt-in)', async () => {
    const user = await server.addUser();
    const body = { id: user.id, delta: 5, reason: '无键' };
    await send('/api/users/update/coins', body, undefined);
    await send('/api/users/update/coins', body, undefined);
    expect(await balance(user.id)).toBe(10);
  });

  it('the same key with another body or on another endpoint is refused with 409 and changes nothing', async () => {
    const user = await server.addUser();
    await send('/api/users/update/coins', { id: user.id, delta: 7, reason: '一' }, 'key-reuse-1');
    const other = await send('/api/users/update/coins', { id: user.id, delta: 8, reason: '一' }, 'key-reuse-1');
    expect(other.body.code).toBe(409);
    expect(other.body.message).toContain('Idempotency-Key');
    expect(await balance(user.id)).toBe(7);
  });

  it('keys belong to their caller: another operator with the same key is not answered from the first', async () => {
    const user = await server.addUser();
    const second = await server.addUser({ isAdmin: true });
    const otherAdmin = await server.login(second.phone, second.password);
    const body = { id: user.id, delta: 3, reason: '各自' };
    await send('/api/users/update/coins', body, 'shared-key', admin);
    const theirs = await send('/api/users/update/coins', body, 'shared-key', otherAdmin);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await balance(user.id)).toBe(6);
  });

  it('a failed call is not remembered: after it, the same key runs again', async () => {
    const user = await server.addUser();
    const body = { id: user.id, delta: -50, reason: '余额不足时' };
    const refused = await send('/api/users/update/coins', body, 'key-after-failure');
    expect(refused.body.code).toBe(409);
    await send('/api/users/update/coins', { id: user.id, delta: 80, reason: '充值' }, undefined);
    const retried = await send('/api/users/update/coins', body, 'key-after-failure');
    expect(retried.body).toMatchObject({ code: 200, data: { coins: 30 } });
  });

  it('a key older than 24 hours is forgotten', async () => {
    const user = await server.addUser();
    const body = { id: user.id, delta: 2, reason: '过期' };
    await send('/api/users/update/coins', body, 'key-old');
    await server.app.services.db
      .updateTable('idempotency_keys')
      .set({ created_at: Date.now() - IDEMPOTENCY_WINDOW_MS - 1000 })
      .where('key', '=', 'key-old')
      .execute();
    const again = await send('/api/users/update/coins', body, 'key-old');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await balance(user.id)).toBe(4);
  });

  it('a malformed key is refused with 400', async () => {
    const user = await server.addUser();
    const answer = await send('/api/users/update/coins', { id: user.id, delta: 1, reason: '坏键' }, 'x'.repeat(300));
    expect(answer.body.code).toBe(400);
    expect(await balance(user.id)).toBe(0);
  });

  it('a registration retried with one key creates one account, also when ten copies race', async () => {
    const phone = nextPhone();
    const body = { phone, password: await digest('User12345'), app: 'tailor' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => send('/api/users/register', body, 'reg-1', '')));
    const data = answers.map((a) => a.body.data as { token: string; user: { id: number } });
    expect(answers.map((a) => a.body.code)).toEqual(Array(10).fill(200));
    expect(new Set(data.map((d) => d.user.id)).size).toBe(1);
    // The stored answer keeps no token: each replay signed in again, with a session of its own.
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(new Set(data.map((d) => d.token)).size).toBe(10);
    for (const { token } of data)
      expect((await send('/api/users/fetch/info', {}, undefined, token)).body.code).toBe(200);
    const rows = await server.app.services.db.selectFrom('users').select('id').where('phone', '=', phone).execute();
    expect(rows).toHaveLength(1);
    // Without the key, the retry is an ordinary registration of a taken phone: with its owner's
    // password it signs them in (docs/security.md#registration-and-existing-phones), and still makes no second account.
    expect((await send('/api/users/register', body, undefined, '')).body.code).toBe(200);
    expect(
      await server.app.services.db.selectFrom('users').select('id').where('phone', '=', phone).execute(),
    ).toHaveLength(1);
  });

  it('a registration key is not fingerprinted with the password: a resend with another one is a failed sign-in', async () => {
    const phone = nextPhone();
    const body = { phone, password: await digest('User12345'), app: 'tailor' };
    expect((await send('/api/users/register', body, 'reg-other-password', '')).body.code).toBe(200);
    // Left out of the stored fingerprint (a fast hash of a password digest would be a way around
    // argon2 for whoever reads a backup), the password is checked again by the replay's sign-in.
    const other = await send(
      '/api/users/register',
      { ...body, password: await digest('Guess1234') },
      'reg-other-password',
      '',
    );
    expect(other.headers.get('idempotent-replayed')).toBe('true');
    expect([other.body.code, other.body.message, other.body.data]).toEqual([401, '手机号或密码错误', null]);
    const again = await send('/api/users/register', body, 'reg-other-password', '');
    expect(again.body.code).toBe(200);
  });
});
