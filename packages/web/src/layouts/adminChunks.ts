import type { ComponentType } from 'react';

/**
 * Each admin page's code (its own lazy chunk) by its path segment under /admin/admin/. Shared by the
 * page list (adminPages.tsx) and by what starts loading a page before the console has rendered it
 * (adminBoot.ts: the entry on a cold load, the menu on hover and click).
 */
export const adminPageChunks = {
  dashboard: () => import('../pages/admin/dashboard'),
  users: () => import('../pages/admin/users'),
  version: () => import('../pages/admin/version'),
  plan: () => import('../pages/admin/plan'),
  order: () => import('../pages/admin/order'),
  iap: () => import('../pages/admin/iap'),
  iaprecord: () => import('../pages/admin/iaprecord'),
  exchange: () => import('../pages/admin/exchange'),
  exchangerecord: () => import('../pages/admin/exchangerecord'),
  selfapp: () => import('../pages/admin/selfapp'),
  selfapprecord: () => import('../pages/admin/selfapprecord'),
  feedback: () => import('../pages/admin/feedback'),
  feedbackv2: () => import('../pages/admin/feedbackv2'),
  unsplash: () => import('../pages/admin/unsplash'),
  soundeffect: () => import('../pages/admin/soundeffect'),
  a11t: () => import('../pages/admin/a11t'),
  upload: () => import('../pages/admin/upload'),
  help: () => import('../pages/admin/help'),
  message: () => import('../pages/admin/message'),
  coin: () => import('../pages/admin/coin'),
  audit: () => import('../pages/admin/audit'),
  loginlog: () => import('../pages/admin/loginlog'),
  reviewreward: () => import('../pages/admin/reviewreward'),
  allocation: () => import('../pages/admin/allocation'),
  online: () => import('../pages/admin/online'),
  account: () => import('../pages/admin/account'),
  inbox: () => import('../pages/admin/inbox'),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

export type AdminPageKey = keyof typeof adminPageChunks;

/** Starts downloading a page's code (e.g. when the pointer is on its menu entry); the page loads it again from there. */
export function loadPageCode(key: string): void {
  const load = (adminPageChunks as Record<string, () => Promise<unknown>>)[key];
  // A failure shows when the page itself asks for its code.
  load?.().catch(() => undefined);
}
