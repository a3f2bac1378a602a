import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crossInstanceSettled, startServer, type TestServer, tinyPng } from './harness';

let server: TestServer;
let token: string;
beforeEach(async () => {
  server = await startServer({
    limits: { image: 64 * 1024, audio: 1024, package: 1024, jsonBody: 1024 * 1024, imagePixels: 40_000_000 },
  });
  token = (await server.initAdmin()).token;
});
afterEach(async () => {
  await server.close();
});

const allocationOf = (answer: { body: { data?: unknown } }) =>
  (answer.body.data as { allocation: Record<string, unknown> }).allocation;

describe('site configuration', () => {
  it('updates each text field, answers the new configuration and audits the change', async () => {
    const cases: [string, Record<string, string>, string, string][] = [
      ['/api/allocation/update/title', { title: '新标题' }, 'title', '新标题'],
      ['/api/allocation/update/qq/account', { qq: '10001' }, 'qq', '10001'],
      ['/api/allocation/update/slogen', { slogen: '新标语' }, 'slogen', '新标语'],
      ['/api/allocation/update/about', { about: '关于\n我们' }, 'about', '关于\n我们'],
    ];
    for (const [path, body, field, value] of cases) {
      const answer = await server.call(path, body, token);
      expect(answer.body.code).toBe(200);
      expect(answer.body.message).not.toBe('');
      expect(allocationOf(answer)[field]).toBe(value);
    }
    const fetched = allocationOf(await server.call('/api/allocation/fetch'));
    expect(fetched).toMatchObject({ title: '新标题', qq: '10001', slogen: '新标语', about: '关于\n我们' });
    const audit = await server.app.services.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    const titleRow = audit.find((r) => r.action === 'allocation.update.title');
    expect(titleRow).toBeDefined();
    expect(JSON.parse(titleRow?.before ?? '{}')).toEqual({ title: '测试站点' });
    expect(JSON.parse(titleRow?.after ?? '{}')).toEqual({ title: '新标题' });
  });

  it('rejects bad values with a Chinese message naming the field', async () => {
    const empty = await server.call('/api/allocation/update/title', { title: '   ' }, token);
    expect(empty.body).toMatchObject({ code: 400, message: '站点标题不能为空' });
    const qq = await server.call('/api/allocation/update/qq/account', { qq: 'abc' }, token);
    expect(qq.body.code).toBe(400);
    expect(qq.body.message).toContain('QQ');
    const missing = await server.call('/api/allocation/update/slogen', {}, token);
    expect(missing.body).toMatchObject({ code: 400, message: '缺少标语' });
  });

  it('stores an uploaded logo under a generated name and serves it back', async () => {
    const answer = await server.upload('/api/allocation/update/logo', 'logo', tinyPng, '../../evil name.png', token);
    expect(answer.body.code).toBe(200);
    const logo = allocationOf(answer).logo as string;
    expect(logo).toMatch(/^\/files\/\d{4}-\d{2}\/[A-Za-z0-9_-]+\.png$/);
    expect(logo).not.toContain('evil');
    const served = await fetch(server.url + logo);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(tinyPng))).toBe(true);
    const files = await server.app.services.db.selectFrom('files').selectAll().execute();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ mime: 'image/png', size: tinyPng.length, kind: 'image' });
    const service = await server.upload('/api/allocation/update/service', 'service', tinyPng, 'kf.png', token);
    expect(allocationOf(service).service).toMatch(/^\/files\//);
  });

  it('decides the type by the bytes: a text file named .png is refused with 415', async () => {
    const fake = new TextEncoder().encode('<svg onload="alert(1)"></svg>');
    const answer = await server.upload('/api/allocation/update/logo', 'logo', fake, 'logo.png', token);
    expect(answer.body.code).toBe(415);
    expect(allocationOf(await server.call('/api/allocation/fetch')).logo).toBeNull();
    expect(await server.app.services.db.selectFrom('files').selectAll().execute()).toHaveLength(0);
  });

  it('refuses an image over the limit with 413 and keeps nothing', async () => {
    const big = new Uint8Array(100 * 1024);
    big.set(tinyPng);
    const answer = await server.upload('/api/allocation/update/logo', 'logo', big, 'big.png', token);
    expect(answer.body.code).toBe(413);
    expect(answer.body.message).toContain('64 KB');
    expect(await server.app.services.db.selectFrom('files').selectAll().execute()).toHaveLength(0);
  });

  it('refuses two files in one upload with a message that says so, and keeps neither', async () => {
    const form = new FormData();
    form.append('logo', new Blob([tinyPng]), 'a.png');
    form.append('logo', new Blob([tinyPng]), 'b.png');
    const answer = await server.raw('/api/allocation/update/logo', { method: 'POST', headers: { token }, body: form });
    expect(answer.body).toMatchObject({ code: 400, message: '一次只能上传一个文件（字段名 logo）' });
    expect(await server.app.services.db.selectFrom('files').selectAll().execute()).toHaveLength(0);
    expect(allocationOf(await server.call('/api/allocation/fetch')).logo).toBeNull();
  });

  it('refuses a wrong file field and a JSON body on an upload endpoint', async () => {
    const wrongField = await server.upload('/api/allocation/update/logo', 'file', tinyPng, 'a.png', token);
    expect(wrongField.body.code).toBe(400);
    const json = await server.call('/api/allocation/update/logo', {}, token);
    expect(json.body.code).toBe(400);
  });

  it('only admins may change it', async () => {
    const user = await server.addUser();
    const userToken = await server.login(user.phone, user.password);
    expect((await server.call('/api/allocation/update/title', { title: 'x' }, userToken)).body.code).toBe(403);
    expect((await server.upload('/api/allocation/update/logo', 'logo', tinyPng, 'a.png', userToken)).body.code).toBe(
      403,
    );
    expect((await server.call('/api/allocation/update/title', { title: 'x' })).body.code).toBe(401);
    expect(allocationOf(await server.call('/api/allocation/fetch')).title).toBe('测试站点');
  });
  it('a change is seen by the very next fetch, also with fetches running while it commits', async () => {
    // The configuration is kept in memory for a second; a change must drop that copy when it commits.
    let reading = true;
    const readers = Array.from({ length: 3 }, async () => {
      while (reading) await server.call('/api/allocation/fetch');
    });
    try {
      for (let i = 0; i < 15; i += 1) {
        const title = `标题 ${i}`;
        expect((await server.call('/api/allocation/update/title', { title }, token)).body.code).toBe(200);
        await crossInstanceSettled();
        expect(allocationOf(await server.call('/api/allocation/fetch')).title).toBe(title);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
    await server.call('/api/allocation/update/title', { title: '测试站点' }, token);
  });
});
