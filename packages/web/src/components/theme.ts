import { useSyncExternalStore } from 'react';

/**
 * Light or dark console: the operator's choice (跟随系统 by default), remembered in this browser.
 * The resolved scheme is written to `<html data-theme>` so our own stylesheets follow it (their
 * colours are the `--app-*` variables of base.css), and AntdRoot picks antd's algorithm from it.
 */
export type ThemeMode = 'system' | 'light' | 'dark';
export type Scheme = 'light' | 'dark';

export const themeModes: { value: ThemeMode; label: string }[] = [
  { value: 'system', label: '跟随系统' },
  { value: 'light', label: '浅色' },
  { value: 'dark', label: '深色' },
];

const KEY = 'appdesk.theme';
const listeners = new Set<() => void>();

function readMode(): ThemeMode {
  try {
    const stored = window.localStorage.getItem(KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

const darkQuery = typeof window !== 'undefined' ? window.matchMedia?.('(prefers-color-scheme: dark)') : undefined;

let mode: ThemeMode = typeof window !== 'undefined' ? readMode() : 'system';

function resolve(): Scheme {
  if (mode === 'system') return darkQuery?.matches ? 'dark' : 'light';
  return mode;
}

let scheme: Scheme = resolve();

function emit(): void {
  scheme = resolve();
  for (const listener of listeners) listener();
}

darkQuery?.addEventListener?.('change', () => {
  if (mode === 'system') emit();
});
// Another tab changed the choice.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== KEY) return;
    mode = readMode();
    emit();
  });
}

export function getThemeMode(): ThemeMode {
  return mode;
}

export function setThemeMode(next: ThemeMode): void {
  mode = next;
  try {
    if (next === 'system') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, next);
  } catch {
    // No storage: the choice lasts until the next reload.
  }
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The scheme in force (the system's when the operator chose 跟随系统). */
export function useScheme(): Scheme {
  return useSyncExternalStore(
    subscribe,
    () => scheme,
    () => 'light',
  );
}

export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(
    subscribe,
    () => mode,
    () => 'system',
  );
}

/** Marks the document with the scheme (null: the public pages, which have no dark variant). */
export function markDocument(value: Scheme | null): void {
  const root = document.documentElement;
  if (value) {
    root.dataset.theme = value;
    root.style.colorScheme = value;
  } else {
    delete root.dataset.theme;
    root.style.colorScheme = '';
  }
}

/** The scheme now, for code outside React (the first paint of a layout). */
export function currentScheme(): Scheme {
  return scheme;
}
