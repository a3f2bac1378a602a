/**
 * The request client's answer to HTTP failures (docs/spec-notes.md#8-answers-notices-and-the-session), in Node with a fetch that answers
 * like a proxy or a server would.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { statusMeaning } from './status';

let answer: () => Response;

beforeEach(() => {
  vi.stubGlobal('window', {
    localStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
    location: { pathname: '/admin/admin/users', search: '', replace: () => undefined },
  });
  vi.stubGlobal('fetch', async () => answer());
  vi.resetModules();
});
afterEach(() => vi.unstubAllGlobals());

/** The HttpError a call ends with; its message is the notification's description. */
async function failure(): Promise<{ status: number; message: string }> {
  const { call } = await import('./request');
  return call('/api/allocation/fetch', {}, { silent: true }).then(
    () => ({ status: -1, message: 'no failure' }),
    (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
  );
}

describe('a non-2xx answer', () => {
  it('whose body is not JSON is described by what its status means in Chinese', async () => {
    answer = () => new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502 });
    expect(await failure()).toEqual({ status: 502, message: '网关错误：服务器没有正确响应，请稍后再试' });
    answer = () => new Response(null, { status: 404, statusText: 'Not Found' });
    expect(await failure()).toEqual({ status: 404, message: '接口不存在' });
    answer = () => new Response('', { status: 504 });
    expect(await failure()).toEqual({ status: 504, message: statusMeaning(504) });
  });

  it('with a JSON body says the server’s own words', async () => {
    answer = () => new Response(JSON.stringify({ code: 413, message: '文件超过 10 MB' }), { status: 413 });
    expect(await failure()).toEqual({ status: 413, message: '文件超过 10 MB' });
  });

  it('a 2xx answer that is not JSON says so', async () => {
    answer = () => new Response('<html>captive portal</html>', { status: 200 });
    expect(await failure()).toEqual({ status: 200, message: '返回内容不是有效的 JSON' });
  });
});

describe('the notification of a failed call', () => {
  it('is titled with the status in words, never the call’s path', async () => {
    const { httpFailureTitle } = await import('./request');
    for (const status of [0, 404, 500, 502]) {
      const title = httpFailureTitle(status);
      expect(title).not.toMatch(/\/api\/|[A-Za-z]/);
      expect(title).toMatch(status ? String(status) : '无法连接');
    }
  });
});

describe('what a status means', () => {
  it('is Chinese for every status, known or not', () => {
    for (const status of [0, 400, 401, 403, 404, 405, 408, 413, 415, 418, 429, 500, 502, 503, 504, 520]) {
      expect(statusMeaning(status)).toMatch(/^[^A-Za-z]+$/);
    }
    expect(statusMeaning(599)).toBe('服务器暂时无法处理，请稍后再试');
    expect(statusMeaning(418)).toBe('请求失败，服务器拒绝了这个请求');
  });
});

describe('two-factor sign-in answers', () => {
  it('432 (a code comes next) is handed back quietly; 433 (enrol first) sends the console to the sign-in page', async () => {
    const replaced: string[] = [];
    vi.stubGlobal('window', {
      localStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
      location: { pathname: '/admin/admin/users', search: '?page=2', replace: (to: string) => replaced.push(to) },
    });
    const { handleEnvelope } = await import('./request');
    const challenge = { code: 432, message: '请输入验证器 App 上的 6 位验证码', data: { challenge: 'c' } };
    expect(handleEnvelope(challenge, { silent: true })).toBe(challenge);
    expect(() => handleEnvelope({ code: 433, message: '请先绑定' }, { silent: true })).toThrow('请先绑定');
    expect(replaced).toEqual([`/user/login?enrol=1&redirect=${encodeURIComponent('/admin/admin/users?page=2')}`]);
  });

  it('a 403 denial (a permission, an app) keeps the session; any other 403 ends it', async () => {
    const replaced: string[] = [];
    const removed: string[] = [];
    vi.stubGlobal('window', {
      localStorage: {
        getItem: () => 'token',
        setItem: () => undefined,
        removeItem: (key: string) => removed.push(key),
      },
      location: { pathname: '/admin/admin/order', search: '', replace: (to: string) => replaced.push(to) },
    });
    const { handleEnvelope } = await import('./request');
    const denial = {
      code: 403,
      message: '没有「订单管理 · 退款」的权限，请联系超级管理员',
      data: { denied: 'permission' },
    };
    expect(() => handleEnvelope(denial, { silent: true })).toThrow('退款');
    expect([replaced, removed]).toEqual([[], []]);
    expect(() => handleEnvelope({ code: 403, message: '账号已被封禁' }, { silent: true })).toThrow('账号已被封禁');
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).toMatch(/^\/user\/login/);
  });
});
