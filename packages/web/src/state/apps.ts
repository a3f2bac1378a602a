import type { ApiOutput } from '@appdesk/contract/types';
import { useMemo } from 'react';
import { useApiQuery } from '../api/hooks';
import { createStore, useStore } from './store';

/**
 * The company's apps as the console knows them (应用管理), and the app the operator works in: the
 * header's switcher (全部应用 or one app). Every list, export and dashboard card follows the
 * current app; it is kept across reloads, and a change in one tab reaches the others.
 */
const KEY = 'appdesk.currentApp';

export type AppOption = ApiOutput<'/api/apps/fetch/options'>['list'][number];

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
  if (app) window.localStorage.setItem(KEY, app);
  else window.localStorage.removeItem(KEY);
  currentAppStore.set({ app });
}

/** The app the console works in; undefined for 全部应用. */
export function useCurrentApp(): string | undefined {
  return useStore(currentAppStore, (s) => s.app);
}

/** The apps, their names by code, and select options; loaded once and refreshed after a change in 应用管理. */
export function useApps() {
  const query = useApiQuery('/api/apps/fetch/options', {});
  const list: AppOption[] = query.data?.list ?? [];
  return useMemo(() => {
    const byCode = new Map(list.map((a) => [a.code, a]));
    return {
      list,
      loaded: query.data !== undefined,
      secretsWritable: query.data?.secretsWritable ?? false,
      /** The app's name (never its code, unless no app has it). */
      nameOf: (code: string | null | undefined) => (code ? (byCode.get(code)?.name ?? code) : ''),
      options: list.map((a) => ({ value: a.code, label: a.enabled ? a.name : `${a.name}（已停用）` })),
    };
  }, [list, query.data]);
}
