/**
 * The client-side rules of docs/spec-notes.md#4-client-state, run in Node with an in-memory localStorage and a
 * recording fetch: login restore, notices and notifyCount, the unread-message throttle, and the
 * session-ending codes of docs/spec-notes.md#8-answers-notices-and-the-session.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
let answers: Record<string, unknown> = {};
const replaced: string[] = [];

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}

beforeEach(() => {
  calls.length = 0;
  replaced.length = 0;
  answers = {};
  vi.stubGlobal('window', {
    localStorage: memoryStorage(),
    sessionStorage: memoryStorage(),
    location: { pathname: '/admin/admin/users', search: '?q=%E8%89%B3', replace: (to: string) => replaced.push(to) },
  });
  vi.stubGlobal('document', { cookie: '' });
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url);
    return new Response(JSON.stringify(answers[url] ?? { code: 200, message: '成功' }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.resetModules();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const load = async () => ({
  session: await import('./session'),
  global: await import('./global'),
  request: await import('../api/request'),
});

describe('login restore', () => {
  it('sets the current user and isLogin from storage, then runs the callback', async () => {
    const { session } = await load();
    window.localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true }));
    window.localStorage.setItem('token', 't1');
    const done = vi.fn();
    session.restoreLogin(done);
    expect(session.userStore.get()).toMatchObject({ isLogin: true, currentUser: { name: '管理员', isAdmin: true } });
    expect(done).toHaveBeenCalledOnce();
  });

  it('sends no stored user to login and a non-admin to 403', async () => {
    const { session } = await load();
    // Signing in returns to the page asked for, with its query.
    expect(session.adminRedirect()).toBe('/user/login?redirect=%2Fadmin%2Fadmin%2Fusers%3Fq%3D%25E8%2589%25B3');
    window.localStorage.setItem('user', JSON.stringify({ name: '小明', isAdmin: false }));
    expect(session.adminRedirect()).toBe('/exception/403');
    window.localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true }));
    expect(session.adminRedirect()).toBeNull();
    // A password someone else chose: changed on the login page before the console opens.
    window.localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true, mustChangePassword: true }));
    expect(session.adminRedirect()).toBe('/user/login?change=1');
  });
});

describe('notices', () => {
  it('stores the fetched notices, counts them, and clearing a type leaves the rest', async () => {
    const { session, global } = await load();
    window.localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true }));
    session.restoreLogin();
    const notice = (id: string, type: string) => ({ id, type, title: id, description: '', datetime: '', link: null });
    answers['/api/notices/fetch'] = {
      code: 200,
      message: '成功',
      data: [notice('a', 'message'), notice('b', 'message'), notice('c', 'feedback')],
    };
    const fetching = global.fetchNotices();
    expect(global.globalStore.get().fetchingNotices).toBe(true);
    await fetching;
    expect(global.globalStore.get()).toMatchObject({ fetchingNotices: false });
    expect(global.globalStore.get().notices).toHaveLength(3);
    expect(session.userStore.get().currentUser?.notifyCount).toBe(3);
    global.clearNotices('message');
    expect(global.globalStore.get().notices.map((n) => n.id)).toEqual(['c']);
    expect(session.userStore.get().currentUser?.notifyCount).toBe(1);
  });
});

describe('unread messages', () => {
  const unread = '/api/message/fetch/page/unread';

  it('loads on code 200, not again within 60 s unless forced, and never while a fetch runs', async () => {
    const { session, global } = await load();
    answers[unread] = {
      code: 200,
      message: '成功',
      list: [{ id: 1, title: '新版本', content: '', read: false }],
      total: 1,
    };
    const first = global.fetchUnreadMessages();
    await global.fetchUnreadMessages(); // in flight: skipped
    await first;
    expect(calls.filter((c) => c === unread)).toHaveLength(1);
    expect(session.userStore.get()).toMatchObject({ unreadTotal: 1, messageLoading: false });

    await global.fetchUnreadMessages(); // within 60 s: skipped
    expect(calls.filter((c) => c === unread)).toHaveLength(1);
    await global.fetchUnreadMessages(true); // forced
    expect(calls.filter((c) => c === unread)).toHaveLength(2);

    session.userStore.set({ lastMessageLoading: Date.now() - 60_001 });
    answers[unread] = { code: 500, message: '出错' };
    await global.fetchUnreadMessages(); // 60 s later: fetched, but a non-200 answer keeps the list
    expect(calls.filter((c) => c === unread)).toHaveLength(3);
    expect(session.userStore.get().unreadTotal).toBe(1);
  });
});

describe('session-ending codes', () => {
  it('401, 402 and 403 clear the stored user and token and replace the location with the login page', async () => {
    for (const code of [401, 402, 403]) {
      vi.resetModules(); // each on a page of its own, as after the navigation
      const { request, session } = await load();
      window.localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true }));
      window.localStorage.setItem('token', 'old');
      session.restoreLogin();
      const error = (() => {
        try {
          request.handleEnvelope({ code, message: '请先登录' }, { silent: true });
        } catch (e) {
          return e as { id: number };
        }
      })();
      expect(error?.id).toBe(code);
      expect([window.localStorage.getItem('user'), window.localStorage.getItem('token')]).toEqual([null, null]);
      expect(session.userStore.get().isLogin).toBe(false);
      // The login page says why (a lapsed token, an expired session, a refusal); every one returns to the page after signing in.
      const why = code === 401 ? 'expired=1&' : `reason=${code}&`;
      expect(replaced.at(-1)).toBe(`/user/login?${why}redirect=%2Fadmin%2Fadmin%2Fusers%3Fq%3D%25E8%2589%25B3`);
    }
  });

  it('the login page says why the operator is back for 401, 402 and 403, with the server’s words for a refusal', async () => {
    const { request, session } = await load();
    window.localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true }));
    window.localStorage.setItem('token', 'old');
    expect(() => request.handleEnvelope({ code: 403, message: '账号已被封禁' }, { silent: true })).toThrow();
    const search = `?${replaced.at(-1)?.split('?')[1]}`;
    const said = session.keptSignOutMessage(403);
    expect(said).toBe('账号已被封禁');
    expect(session.signOutNotice(search, said)).toEqual({
      title: '没有权限继续使用管理后台，已退出登录',
      description: '服务器说明：账号已被封禁。如有疑问请联系其他管理员。',
    });
    // The kept words belong to that reason only, and signing in forgets them.
    expect(session.keptSignOutMessage(402)).toBe('');
    session.saveSession('new', { name: '管理员', isAdmin: true });
    expect(session.keptSignOutMessage(403)).toBe('');
    expect(session.signOutNotice('?reason=403')?.description).toBe(
      '账号可能已被封禁或已不是管理员，如有疑问请联系其他管理员。',
    );
    expect(session.signOutNotice('?reason=402')?.title).toBe('登录已过期，请重新登录');
    // The console's idle timeout: the server's words, and where signing in returns to.
    expect(
      session.signOutNotice('?reason=402&redirect=%2Fadmin%2Fadmin%2Forder', '长时间未操作，已退出登录，请重新登录'),
    ).toEqual({
      title: '长时间未操作，已退出登录，请重新登录',
      description: '为了账号安全，管理后台一段时间未操作会自动退出。重新登录后将回到刚才的页面。',
    });
    expect(session.signOutNotice('?expired=1&redirect=%2Fadmin%2F')?.title).toBe('登录已失效，请重新登录');
    expect(session.signOutNotice('?redirect=%2Fadmin%2F')).toBeNull();
  });

  it('a 401 without a stored token (signed out meanwhile) goes to sign in without saying the session lapsed', async () => {
    const { request } = await load();
    window.localStorage.clear();
    expect(() => request.handleEnvelope({ code: 401, message: '请先登录' }, { silent: true })).toThrow();
    expect(replaced.at(-1)).toBe('/user/login?redirect=%2Fadmin%2Fadmin%2Fusers%3Fq%3D%25E8%2589%25B3');
  });

  it('calls of one page that all answer 401 leave it once, for where the first one said', async () => {
    const { request } = await load();
    window.localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true }));
    window.localStorage.setItem('token', 'revoked');
    for (let i = 0; i < 3; i++) {
      expect(() => request.handleEnvelope({ code: 401, message: '请先登录' }, { silent: true })).toThrow();
    }
    expect(replaced).toEqual(['/user/login?expired=1&redirect=%2Fadmin%2Fadmin%2Fusers%3Fq%3D%25E8%2589%25B3']);
  });

  it('returns only to this console after signing in, never to another site', async () => {
    const { session } = await load();
    expect(session.safeReturnPath('/admin/admin/coin?userId=3')).toBe('/admin/admin/coin?userId=3');
    for (const hostile of [
      '//evil.example/admin/',
      'https://evil.example',
      '/admin//evil',
      '/\\evil',
      '/user/login',
      null,
    ]) {
      expect(session.safeReturnPath(hostile)).toBeNull();
    }
  });

  it('an HTTP failure says the server’s own words, or what the status means in Chinese, never English', async () => {
    const { request } = await load();
    expect(
      request.httpFailure(413, request.bodyMessage('{"code":413,"message":"文件超过 10 MB"}'), '/api/x', true).message,
    ).toBe('文件超过 10 MB');
    expect(
      request.httpFailure(413, request.bodyMessage('<html>Payload Too Large</html>'), '/api/x', true).message,
    ).toBe('提交的内容过大');
    expect(request.httpFailure(502, '', '/api/x', true).message).toBe('网关错误：服务器没有正确响应，请稍后再试');
  });

  it('other codes come back as values', async () => {
    const { request } = await load();
    window.localStorage.setItem('token', 'kept');
    expect(request.handleEnvelope({ code: 409, message: '冲突' }, { silent: true })).toMatchObject({ code: 409 });
    expect(window.localStorage.getItem('token')).toBe('kept');
  });
});
