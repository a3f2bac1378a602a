import { endpointEntries } from '@appdesk/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { digest, startServer, type TestServer } from './harness';

type MultipartSchema = { properties: Record<string, { description?: string }>; required: string[] };

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const adminCount = async () =>
  (await server.app.services.db.selectFrom('users').select('id').where('is_admin', '=', 1).execute()).length;

describe('first-run setup', () => {
  it('works once; a second call answers 409 and leaves one admin', async () => {
    await server.initAdmin();
    const again = await server.call('/api/allocation/init', {
      phone: '13900000001',
      password: await digest('Other12345'),
      title: '另一个站',
      slogen: '',
    });
    expect(again.body.code).toBe(409);
    expect(await adminCount()).toBe(1);
    const fetched = await server.call('/api/allocation/fetch');
    expect(fetched.body.data).toMatchObject({ allocation: { title: '测试站点', isInit: true } });
    const db = server.app.services.db;
    const admin = await db.selectFrom('users').select('id').where('is_admin', '=', 1).executeTakeFirstOrThrow();
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'allocation.init').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].actor_id).toBe(admin.id);
  });

  it('50 concurrent calls on a fresh database create exactly one admin', async () => {
    const password = await digest('Race12345');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.call('/api/allocation/init', {
          phone: `1370000${String(i).padStart(4, '0')}`,
          password,
          title: `站点${i}`,
          slogen: '',
        }),
      ),
    );
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    expect(await adminCount()).toBe(1);
    const users = await server.app.services.db.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(1);
  });
});

describe('sign-in', () => {
  it('answers a token and the user; unknown phone and wrong password answer alike', async () => {
    const { phone } = await server.initAdmin();
    const ok = await server.call('/api/users/login', { phone, password: await digest('Admin12345') });
    expect(ok.body.code).toBe(200);
    expect(ok.body.data).toMatchObject({ user: { phone, isAdmin: true, name: '管理员' } });
    const wrong = await server.call('/api/users/login', { phone, password: await digest('nope') });
    const unknown = await server.call('/api/users/login', { phone: '13911112222', password: await digest('nope') });
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe(401);
  });

  it('20 wrong passwords in a row answer 429, even for the right password afterwards', async () => {
    const { phone } = await server.initAdmin();
    const wrong = await digest('wrong-password');
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) {
      codes.push((await server.call('/api/users/login', { phone, password: wrong })).body.code);
    }
    expect(codes.slice(0, 9).every((c) => c === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    const right = await server.call('/api/users/login', { phone, password: await digest('Admin12345') });
    expect(right.body.code).toBe(429);
    expect(right.body.message).toMatch(/分钟后再试/);
  });

  it('the lock is kept in the database, so another server process refuses too', async () => {
    const { phone } = await server.initAdmin();
    for (let i = 0; i < 10; i++) await server.call('/api/users/login', { phone, password: await digest('x') });
    const second = await server.secondInstance();
    try {
      const answer = await second.call('/api/users/login', { phone, password: await digest('Admin12345') });
      expect(answer.body.code).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('a blocked account cannot sign in and its token is refused', async () => {
    await server.initAdmin();
    const user = await server.addUser();
    const token = await server.login(user.phone, user.password);
    await server.app.services.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', user.id).execute();
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(403);
    const again = await server.call('/api/users/login', { phone: user.phone, password: await digest(user.password) });
    expect(again.body.code).toBe(403);
  });
});

describe('sessions', () => {
  it('fetch/info answers the signed-in user; logout revokes the token', async () => {
    const { token, phone } = await server.initAdmin();
    const info = await server.call('/api/users/fetch/info', {}, token);
    expect(info.body.data).toMatchObject({ user: { phone, isAdmin: true } });
    expect((await server.call('/api/users/logout', {}, token)).body.code).toBe(200);
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(401);
  });

  it('a password change keeps this session and revokes every other one', async () => {
    const { token, phone } = await server.initAdmin();
    const other = await server.login(phone, 'Admin12345');
    const third = await server.login(phone, 'Admin12345');
    const changed = await server.call(
      '/api/users/update/password',
      { old: await digest('Admin12345'), refresh: await digest('NewPass123'), plainPassword: 'NewPass123' },
      token,
    );
    expect(changed.body.code).toBe(200);
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(200);
    expect((await server.call('/api/users/fetch/info', {}, other)).body.code).toBe(401);
    expect((await server.call('/api/users/fetch/info', {}, third)).body.code).toBe(401);
    expect((await server.call('/api/users/login', { phone, password: await digest('Admin12345') })).body.code).toBe(
      401,
    );
    await server.login(phone, 'NewPass123');
  });

  it('a wrong old password changes nothing', async () => {
    const { token } = await server.initAdmin();
    const answer = await server.call(
      '/api/users/update/password',
      { old: await digest('not-it'), refresh: await digest('NewPass123'), plainPassword: 'NewPass123' },
      token,
    );
    expect(answer.body).toMatchObject({ code: 400, message: '原密码不正确' });
  });

  it('an expired session answers 402 and is gone afterwards', async () => {
    const { token } = await server.initAdmin();
    await server.app.services.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1000 })
      .execute();
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(402);
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(401);
  });

  it('sliding expiry never passes the absolute limit of 30 days', async () => {
    const { token } = await server.initAdmin();
    const day = 24 * 60 * 60 * 1000;
    const created = Date.now() - 29 * day;
    await server.app.services.db
      .updateTable('sessions')
      .set({ created_at: created, last_used_at: Date.now() - 2 * 60 * 1000 })
      .execute();
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(200);
    const row = await server.app.services.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(created + 30 * day);
  });

  it('tokens are stored only as their hash', async () => {
    const { token } = await server.initAdmin();
    const rows = await server.app.services.db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe('secrets and faults', () => {
  it('never logs tokens, password digests or password hashes', async () => {
    const { token } = await server.initAdmin();
    await server.call('/api/users/fetch/info', {}, token);
    const logText = server.logs.join('');
    expect(logText.length).toBeGreaterThan(0);
    expect(logText).not.toContain(token);
    expect(logText).not.toContain(await digest('Admin12345'));
    expect(logText).not.toContain('$argon2id$');
  });

  it('answers pre-endpoint faults with HTTP status and the JSON envelope', async () => {
    const unknown = await server.call('/api/nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(404);
    const malformed = await server.raw('/api/allocation/fetch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"oops":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 400 });
    const huge = await server.raw('/api/allocation/fetch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe(413);
    expect(unknown.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(unknown.headers.get('x-content-type-options')).toBe('nosniff');
    // API answers: nothing renders, frames or keeps them.
    expect(unknown.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(unknown.headers.get('x-frame-options')).toBe('DENY');
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    const probe = await server.raw('/healthz', { method: 'GET' });
    expect(probe.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(probe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the OpenAPI document generated from the endpoint table', async () => {
    const doc = await server.raw('/api/openapi.json', { method: 'GET' });
    const paths = Object.keys((doc.body as unknown as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/api/allocation/init');
    expect(paths).toContain('/api/users/update/password');
  });

  it('documents every form field of every upload endpoint, not only the file', async () => {
    const doc = (await server.raw('/api/openapi.json', { method: 'GET' })).body as unknown as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: MultipartSchema }> } } }>;
    };
    const uploads = endpointEntries.filter(([, def]) => def.upload);
    expect(uploads.length).toBeGreaterThan(5);
    for (const [path, def] of uploads) {
      const form = doc.paths[path].post.requestBody.content['multipart/form-data'].schema;
      const fields = Object.keys((def.input as z.ZodObject).shape);
      const field = def.upload?.field ?? '';
      expect(Object.keys(form.properties).sort(), path).toEqual([field, ...fields].sort());
      expect(form.required, path).toContain(field);
      expect(form.properties[field].description, path).toMatch(/[\u4e00-\u9fff]/);
    }
    const review = doc.paths['/api/reviewreward/make'].post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(review.properties)).toEqual(expect.arrayContaining(['screenshot', 'app', 'store']));
  });
});
