import { Code } from '@appdesk/contract/codes';
import { timings } from '@appdesk/contract/constants';
import type { Notice } from '@appdesk/contract/types';
import { call } from '../api/request';
import { userStore } from './session';
import { createStore } from './store';

export interface GlobalState {
  /** Side menu collapsed (default true). */
  collapsed: boolean;
  notices: Notice[];
  fetchingNotices: boolean;
}

const COLLAPSED_KEY = 'appdesk.menu.collapsed';

/** The operator's last choice on a wide screen; collapsed on a first visit (docs/spec-notes.md#4-client-state). */
function rememberedCollapsed(): boolean {
  try {
    return globalThis.localStorage?.getItem(COLLAPSED_KEY) !== '0';
  } catch {
    return true;
  }
}

export const globalStore = createStore<GlobalState>({
  collapsed: rememberedCollapsed(),
  notices: [],
  fetchingNotices: false,
});

function setNotifyCount(count: number): void {
  userStore.set((s) => (s.currentUser ? { currentUser: { ...s.currentUser, notifyCount: count } } : {}));
}

/** What the bell's badge counts: every notice's items (a to-do stands for its whole count). */
export const noticeTotal = (notices: Notice[]): number => notices.reduce((sum, n) => sum + (n.count ?? 1), 0);

/** docs/spec-notes.md#4-client-state: fetching sets the loading flag, stores the result, notifyCount = the items in it. */
export async function fetchNotices(): Promise<void> {
  globalStore.set({ fetchingNotices: true });
  try {
    const res = await call('/api/notices/fetch');
    if (res.code === Code.OK) {
      const notices = Array.isArray(res.data) ? res.data : [];
      globalStore.set({ notices });
      setNotifyCount(noticeTotal(notices));
    }
  } catch {
    // The request client already told the user.
  } finally {
    globalStore.set({ fetchingNotices: false });
  }
}

/** Clearing one type removes those notices; notifyCount becomes the items remaining. */
export function clearNotices(type: Notice['type']): void {
  const notices = globalStore.get().notices.filter((n) => n.type !== type);
  globalStore.set({ notices });
  setNotifyCount(noticeTotal(notices));
}

/** `remember`: the operator chose it on a wide screen (the phone drawer's state is not a preference). */
export function setCollapsed(collapsed: boolean, options: { remember?: boolean } = {}): void {
  globalStore.set({ collapsed });
  if (!options.remember) return;
  try {
    globalThis.localStorage?.setItem(COLLAPSED_KEY, collapsed ? '1' : '0');
  } catch {
    // No storage: the choice lasts until the next reload.
  }
}

/**
 * Unread messages (docs/spec-notes.md#4-client-state): loaded only on code 200, not refetched within 60 s of the
 * last fetch unless forced, never while a fetch runs. The call is optional: failures stay quiet.
 */
export async function fetchUnreadMessages(force = false): Promise<void> {
  const state = userStore.get();
  if (state.messageLoading) return;
  if (!force && state.lastMessageLoading && Date.now() - state.lastMessageLoading < timings.unreadThrottleMs) return;
  userStore.set({ messageLoading: true, lastMessageLoading: Date.now() });
  try {
    const res = await call('/api/message/fetch/page/unread', { page: 0, size: 1024 }, { silent: true });
    if (res.code === Code.OK) {
      const list = Array.isArray(res.list) ? res.list : [];
      userStore.set({ unreadMessage: list, unreadTotal: typeof res.total === 'number' ? res.total : list.length });
    }
  } catch {
    // Optional endpoint: keep the bell working without it.
  } finally {
    userStore.set({ messageLoading: false });
  }
}
