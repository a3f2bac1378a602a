import { storageKeys } from '@appdesk/contract/constants';
import type { CurrentUser, InboxMessage } from '@appdesk/contract/types';
import { createStore } from './store';

/** What the client keeps of the signed-in account: at least name and isAdmin (spec section 3). */
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

/** Spec section 4, login restore: stored user → currentUser, isLogin true, then the optional callback. */
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

/**
 * The sign-in page; `from` (the page the operator was on, with its query) is where signing in
 * returns to, and `expired` says why they are there.
 */
export function loginUrl(options: { from?: string; expired?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (options.expired) params.set('expired', '1');
  const back = safeReturnPath(options.from);
  if (back) params.set('redirect', back);
  const query = params.toString();
  return query ? `/user/login?${query}` : '/user/login';
}

/** Spec section 6: where a visitor of /admin must go instead, or null when allowed. */
export function adminRedirect(): string | null {
  const user = readStoredUser();
  if (!user) return loginUrl({ from: window.location.pathname + window.location.search });
  if (!user.name || user.isAdmin !== true) return '/exception/403';
  // A password someone else chose is changed before anything else (the server answers 428 until then).
  if (user.mustChangePassword) return '/user/login?change=1';
  return null;
}

/** The session cookie named SESSION can be cleared (spec section 9). */
export function clearSessionCookie(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the spec names this exact cookie reset
  document.cookie = 'SESSION=; Max-Age=0; path=/';
}
