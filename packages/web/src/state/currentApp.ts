import { createStore, useStore } from './store';

/**
 * The app the operator works in: the header's switcher (全部应用 or one app). Every list, export
 * and dashboard card whose call takes an `app` follows it (components/list/appScope.ts). Kept
 * across reloads, and a change in one tab reaches the others. Light (no antd, no query client):
 * the console's entry reads it before the layout has loaded (layouts/adminBoot.ts).
 */
const KEY = 'appdesk.currentApp';

const read = (): string | undefined => {
  try {
    return window.localStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
};

/** undefined: 全部应用. */
export const currentAppStore = createStore<{ app: string | undefined }>({
  app: typeof window === 'undefined' ? undefined : read(),
});

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === KEY || event.key === null) currentAppStore.set({ app: read() });
  });
}

/** Switches the console to one app, or to 全部应用 (undefined), in this tab and the others. */
export function setCurrentApp(app: string | undefined): void {
  try {
    if (app) window.localStorage.setItem(KEY, app);
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, quota): the choice holds in this tab only.
  }
  currentAppStore.set({ app });
}

/** The app the console works in; undefined for 全部应用. */
export function useCurrentApp(): string | undefined {
  return useStore(currentAppStore, (s) => s.app);
}
