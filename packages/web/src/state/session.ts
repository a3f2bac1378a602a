import { codeMessage } from '@appdesk/contract/codes';
import { storageKeys } from '@appdesk/contract/constants';
import type { CurrentUser, InboxMessage } from '@appdesk/contract/types';
import { createStore } from './store';

/** What the client keeps of the signed-in account: at least name and isAdmin (docs/spec-notes.md#3-stored-state-apps-and-channels). */
export type StoredUser = Partial<CurrentUser> & { name: string; isAdmin: boolean };
export type SessionUser = StoredUser & { notifyCount: number };

export interface UserState {
  currentUser: SessionUser | null;
  isLogin: boolean;
  token: string;
  unreadMessage: InboxMessage[];
  unreadTotal: number;
  messageLoading: boolean;
  /** Time (ms) of the last unread-message fetch, 0 when never fetched. */
  lastMessageLoading: number;
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function getToken(): string {
  return safeStorage()?.getItem(storageKeys.token) ?? '';
}

/** The stored user, or null when missing or unreadable. */
export function readStoredUser(): StoredUser | null {
  const raw = safeStorage()?.getItem(storageKeys.user);
  if (!raw) return null;
  try {
    const user = JSON.parse(raw) as StoredUser | null;
    return user && typeof user === 'object' ? user : null;
  } catch {
    return null;
  }
}

export const userStore = createStore<UserState>({
  currentUser: null,
  isLogin: false,
  token: getToken(),
  unreadMessage: [],
  unreadTotal: 0,
  messageLoading: false,
  lastMessageLoading: 0,
});

/** Keeps the signed-in account and its token in local storage and in state. */
export function saveSession(token: string, user: StoredUser): void {
  forgetSignOut();
  const storage = safeStorage();
  storage?.setItem(storageKeys.token, token);
  storage?.setItem(storageKeys.user, JSON.stringify(user));
  userStore.set((s) => ({
    token,
    isLogin: true,
    currentUser: { ...user, notifyCount: s.currentUser?.notifyCount ?? 0 },
  }));
}

/** Refreshes the stored account (e.g. after /api/users/fetch/info) without touching the token. */
export function updateStoredUser(user: StoredUser): void {
  safeStorage()?.setItem(storageKeys.user, JSON.stringify(user));
  userStore.set((s) => ({ currentUser: { ...user, notifyCount: s.currentUser?.notifyCount ?? 0 }, isLogin: true }));
}

/** Removes user and token (codes 401/402/403, logout); login status becomes false. */
export function clearSession(): void {
  const storage = safeStorage();
  storage?.removeItem(storageKeys.user);
  storage?.removeItem(storageKeys.token);
  userStore.set({ currentUser: null, isLogin: false, token: '', unreadMessage: [], unreadTotal: 0 });
}

/** docs/spec-notes.md#4-client-state, login restore: stored user → currentUser, isLogin true, then the optional callback. */
export function restoreLogin(callback?: () => void): void {
  const user = readStoredUser();
  if (!user) return;
  userStore.set((s) => ({
    currentUser: { ...user, notifyCount: s.currentUser?.notifyCount ?? 0 },
    isLogin: true,
    token: getToken(),
  }));
  callback?.();
}

/**
 * Where a signed-in admin may be sent back to after signing in: a console page of this site, never
 * another origin (`//evil.example`) or a script URL.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw?.startsWith('/admin/') || raw.includes('//') || raw.includes('\\')) return null;
  return raw;
}

/** Why the console sent the operator back to sign in: a lapsed token (401), an expired session (402), refused (403). */
export type SignOutCode = 401 | 402 | 403;

/**
 * The sign-in page; `from` (the page the operator was on, with its query) is where signing in
 * returns to, and `reason` says why they are there (`expired=1` for a lapsed token, `reason=402|403`).
 */
export function loginUrl(options: { from?: string; reason?: SignOutCode | null } = {}): string {
  const params = new URLSearchParams();
  if (options.reason === 401) params.set('expired', '1');
  else if (options.reason) params.set('reason', String(options.reason));
  const back = safeReturnPath(options.from);
  if (back) params.set('redirect', back);
  const query = params.toString();
  return query ? `/user/login?${query}` : '/user/login';
}

/**
 * The server's own words for a sign-out, kept for the sign-in page in this tab only (never in the
 * URL, where a link could put any text on the sign-in page).
 */
const signOutKey = 'signedOutBecause';

export function rememberSignOut(code: SignOutCode, message: string): void {
  try {
    window.sessionStorage?.setItem(signOutKey, JSON.stringify({ code, message }));
  } catch {
    // Storage refused (private mode): the sign-in page says the general reason.
  }
}

/** The server's message for the sign-out `code` names; empty when none was kept for it. Signing in forgets it. */
export function keptSignOutMessage(code: number): string {
  try {
    const raw = window.sessionStorage?.getItem(signOutKey);
    const kept = raw ? (JSON.parse(raw) as { code?: unknown; message?: unknown }) : null;
    return kept?.code === code && typeof kept.message === 'string' ? kept.message : '';
  } catch {
    return '';
  }
}

function forgetSignOut(): void {
  try {
    window.sessionStorage?.removeItem(signOutKey);
  } catch {
    // Nothing kept.
  }
}

/** What the sign-in page says about why the operator is there, from its query; null when it came by itself. */
export function signOutNotice(search: string, said = ''): { title: string; description?: string } | null {
  const params = new URLSearchParams(search);
  if (params.get('expired') === '1') return { title: '登录已失效，请重新登录' };
  const reason = params.get('reason');
  if (reason === '402') {
    // The console's idle timeout (等保二级) says so in its own words; a session's end of life in ours.
    if (said && said !== codeMessage[402]) {
      return {
        title: said,
        description: params.get('redirect')
          ? '为了账号安全，管理后台一段时间未操作会自动退出。重新登录后将回到刚才的页面。'
          : '为了账号安全，管理后台一段时间未操作会自动退出。',
      };
    }
    return {
      title: '登录已过期，请重新登录',
      description: '长时间未使用或登录时间已到上限，为了账号安全需要重新登录。',
    };
  }
  if (reason === '403') {
    return {
      title: '没有权限继续使用管理后台，已退出登录',
      description: said
        ? `服务器说明：${said}。如有疑问请联系其他管理员。`
        : '账号可能已被封禁或已不是管理员，如有疑问请联系其他管理员。',
    };
  }
  return null;
}

/** docs/spec-notes.md#6-the-consoles-route-guard: where a visitor of /admin must go instead, or null when allowed. */
export function adminRedirect(): string | null {
  const user = readStoredUser();
  if (!user) return loginUrl({ from: window.location.pathname + window.location.search });
  if (!user.name || user.isAdmin !== true) return '/exception/403';
  // A password someone else chose is changed before anything else (the server answers 428 until then).
  if (user.mustChangePassword) return '/user/login?change=1';
  return null;
}

/** The session cookie named SESSION can be cleared (docs/spec-notes.md#9-presentation-and-timings). */
export function clearSessionCookie(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the product names this exact cookie reset
  document.cookie = 'SESSION=; Max-Age=0; path=/';
}
