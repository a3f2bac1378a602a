import type { ComponentType } from 'react';
import { loadOnce } from '../components/lazyPage';
import { pageKeyOfFile } from './pageDecl';

/** Every page folder's code, found by Vite: each is its own lazy chunk. */
const pageCode = import.meta.glob<{ default: ComponentType }>('../pages/admin/*/index.tsx');

/**
 * Each admin page's code by its path segment under /admin/admin/ (its folder's name). Shared by the
 * page list (adminPages.tsx) and by what starts loading a page before the console has rendered it
 * (adminBoot.ts: the entry on a cold load, the menu on hover and click).
 */
export const adminPageChunks: Record<string, () => Promise<{ default: ComponentType }>> = Object.fromEntries(
  Object.entries(pageCode).map(([file, load]) => [pageKeyOfFile(file), loadOnce(load)]),
);

/** Starts downloading a page's code (e.g. when the pointer is on its menu entry); the page loads it again from there. */
export function loadPageCode(key: string): void {
  // A failure shows when the page itself asks for its code.
  adminPageChunks[key]?.().catch(() => undefined);
}
