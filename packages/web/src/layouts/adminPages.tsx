import { type ComponentType, createElement, type ReactNode } from 'react';
import { lazyPage } from '../components/lazyPage';
import { adminPageChunks } from './adminChunks';
import { type PageDecl, pageKeyOfFile } from './pageDecl';

export { type AdminMenuGroup, adminMenuGroups, adminPath } from './pageDecl';

export interface AdminPage extends Omit<PageDecl, 'icon'> {
  /** Path segment under /admin/admin/: the page's folder name. */
  key: string;
  icon: ReactNode;
  Component: ComponentType;
}

/** Every page folder's declaration (pages/admin/<key>/page.ts), found by Vite. */
const declarations = import.meta.glob<{ default: PageDecl }>('../pages/admin/*/page.ts', { eager: true });

/** A page that declares itself but has no code (index.tsx) is a mistake the build should not hide. */
function component(key: string): ComponentType {
  const load = adminPageChunks[key];
  if (!load) throw new Error(`pages/admin/${key}/page.ts: the folder has no index.tsx`);
  return lazyPage(load);
}

/** Every admin page, in menu order; each one is its own lazy chunk. */
export const adminPages: AdminPage[] = Object.entries(declarations)
  .map(([file, { default: decl }]) => {
    const key = pageKeyOfFile(file);
    return { ...decl, key, icon: createElement(decl.icon, { 'aria-hidden': true }), Component: component(key) };
  })
  .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
