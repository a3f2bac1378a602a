import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { runCli } from '../../cli';
import { openSecret, secretKeysFromEnv } from '../../core/secret-box';

let server: TestServer;
let admin: string;
const secretsKey = randomBytes(32).toString('base64');
beforeAll(async () => {
  server = await startServer({ secretKeys: secretKeysFromEnv({ APPDESK_SECRETS_KEY: secretsKey }) });
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Answer<T> = { code: number; message: string; data?: T };
const call = <T>(path: string, body: unknown, token = admin) =>
  fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<Answer<T>>);
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await call<T>(path, body, token);
  expect([answer.code, answer.message]).toEqual([200, answer.message]);
  return answer.data as T;
};
type App = {
  id: number;
  code: string;
  name: string;
  enabled: boolean;
  secrets: Record<string, { set: boolean; source: string }>;
};

describe('应用管理', () => {
  it('starts with 滚动截屏 as the default app', async () => {
    const { list } = await ok<{ list: { code: string; name: string }[] }>('apps/fetch/options', {});
    expect(list).toEqual([expect.objectContaining({ code: 'tailor', name: '滚动截屏', enabled: true })]);
  });

  it('registers an app whose code is then unique and immutable', async () => {
    const { app } = await ok<{ app: App }>('apps/make', {
      code: 'quote',
      name: '名言',
      iosBundleId: 'com.appdesk.quote',
      alipayAppId: '2021000000000001',
    });
    expect(app).toMatchObject({ code: 'quote', name: '名言', enabled: true });
    const again = await call('apps/make', { code: 'quote', name: '又一个' });
    expect([again.code, again.message]).toEqual([409, '应用代码 quote 已被应用「名言」使用']);
    const sameBundle = await call('apps/make', { code: 'poster', name: '海报', iosBundleId: 'com.appdesk.quote' });
    expect(sameBundle.message).toBe('iOS Bundle ID com.appdesk.quote 已属于应用「名言」');
    // The code is not among the fields an update takes.
    const renamed = await call('apps/update', { id: app.id, code: 'other' });
    expect([renamed.code, renamed.message]).toEqual([400, '请至少修改一项']);
    expect((await ok<{ app: App }>('apps/fetch/detail', { id: app.id })).app.code).toBe('quote');
    const badCode = await call('apps/make', { code: 'Quote!', name: 'x' });
    expect(badCode.code).toBe(400);
  });

  it('refuses app calls naming an unknown or a disabled app', async () => {
    const unknown = await call('help/fetch/published', { app: 'nosuchapp' }, '');
    expect([unknown.code, unknown.message]).toEqual([400, '未知的应用：nosuchapp']);
    const { list } = await ok<{ list: { code: string }[] }>('apps/fetch/options', {});
    const quote = (await ok<{ list: App[] }>('apps/fetch/page', { search: 'quote' })).list[0];
    expect(list.map((a) => a.code)).toContain('quote');
    await ok('apps/update', { id: quote.id, enabled: false });
    const disabled = await call('help/fetch/published', { app: 'quote' }, '');
    expect([disabled.code, disabled.message]).toEqual([403, '应用「名言」已停用，暂不提供服务']);
    // The console still reaches a disabled app's records.
    expect((await call('help/fetch/page', { app: 'quote' })).code).toBe(200);
    await ok('apps/update', { id: quote.id, enabled: true });
    expect((await call('help/fetch/published', { app: 'quote' }, '')).code).toBe(200);
  });

  it('keeps a secret sealed: never in the database in plain text, never answered, logged without its value', async () => {
    const quote = (await ok<{ list: App[] }>('apps/fetch/page', { search: 'quote' })).list[0];
    const value = 'abcdefghijklmnopqrstuvwxyz012345';
    const { app } = await ok<{ app: App }>('apps/secret/set', { id: quote.id, kind: 'wechatApiV3Key', value });
    expect(app.secrets.wechatApiV3Key).toMatchObject({ set: true, source: 'console' });
    expect(JSON.stringify(app)).not.toContain(value);
    const stored = await server.app.services.db.selectFrom('app_secrets').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].sealed).not.toContain(value);
    const log = await server.app.services.db.selectFrom('audit_log').selectAll().execute();
    expect(JSON.stringify(log)).not.toContain(value);
    const record = await server.app.services.apps.get('quote');
    expect(record && server.app.services.apps.secret(record, 'wechatApiV3Key')).toBe(value);
    const short = await call('apps/secret/set', { id: quote.id, kind: 'wechatApiV3Key', value: 'short' });
    expect([short.code, short.message]).toEqual([400, '微信支付 APIv3 密钥必须是 32 个字符']);
    await ok('apps/secret/set', { id: quote.id, kind: 'wechatApiV3Key', value: null });
    expect(await server.app.services.db.selectFrom('app_secrets').selectAll().execute()).toHaveLength(0);
  });

  it('refuses to keep a secret when the server has no key to seal it with', async () => {
    const keyless = await startServer();
    try {
      const token = (await keyless.initAdmin()).token;
      const post = (path: string, body: unknown) =>
        fetch(`${keyless.url}/api/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<Answer<{ secretsWritable: boolean }>>);
      expect((await post('apps/fetch/options', {})).data?.secretsWritable).toBe(false);
      const refused = await post('apps/secret/set', { id: 1, kind: 'wechatApiV3Key', value: 'x'.repeat(32) });
      expect([refused.code, refused.message]).toEqual([
        400,
        '服务器未配置密钥加密的主密钥，密钥不能在控制台保存：请由服务器的环境变量或文件提供',
      ]);
    } finally {
      await keyless.close();
    }
  });

  it('rotates the key: secrets sealed under the previous key are sealed again under the new one', async () => {
    const quote = (await ok<{ list: App[] }>('apps/fetch/page', { search: 'quote' })).list[0];
    const value = 'rotate-me-0123456789abcdefghijkl';
    await ok('apps/secret/set', { id: quote.id, kind: 'wechatApiV3Key', value });
    const newKey = randomBytes(32).toString('base64');
    const rotated = secretKeysFromEnv({ APPDESK_SECRETS_KEY: newKey, APPDESK_SECRETS_KEY_PREVIOUS: secretsKey });
    const onlyNew = secretKeysFromEnv({ APPDESK_SECRETS_KEY: newKey });
    if (!rotated || !onlyNew) throw new Error('keys');
    const db = server.app.services.db;
    const sealed = async () => (await db.selectFrom('app_secrets').select('sealed').executeTakeFirstOrThrow()).sealed;
    const context = `app:${quote.id}:wechatApiV3Key`;
    const before = await sealed();
    expect(() => openSecret(onlyNew, before, context)).toThrow();
    const printed: string[] = [];
    const exit = await runCli(
      ['rotate-secrets'],
      { ...server.config, secretKeys: rotated },
      {
        print: (line) => printed.push(line),
        open: () => ({ db, dialect: server.app.services.dialect, close: async () => {} }),
      },
    );
    expect([exit, printed]).toEqual([
      0,
      ['已用当前密钥重新加密 1 项密钥（共 1 项）；现在可以去掉 APPDESK_SECRETS_KEY_PREVIOUS'],
    ]);
    expect(openSecret(onlyNew, await sealed(), context)).toBe(value);
    // A sealed value moved to another app or kind does not open.
    const moved = await sealed();
    expect(() => openSecret(onlyNew, moved, `app:${quote.id + 1}:wechatApiV3Key`)).toThrow();
  });
});
