import type { ComponentType } from 'react';
import { loadOnce } from '../components/lazyPage';

/**
 * Each admin page's code (its own lazy chunk) by its path segment under /admin/admin/. Shared by the
 * page list (adminPages.tsx) and by what starts loading a page before the console has rendered it
 * (adminBoot.ts: the entry on a cold load, the menu on hover and click).
 */
export const adminPageChunks = {
  dashboard: loadOnce(() => import('../pages/admin/dashboard')),
  users: loadOnce(() => import('../pages/admin/users')),
  version: loadOnce(() => import('../pages/admin/version')),
  plan: loadOnce(() => import('../pages/admin/plan')),
  order: loadOnce(() => import('../pages/admin/order')),
  iap: loadOnce(() => import('../pages/admin/iap')),
  iaprecord: loadOnce(() => import('../pages/admin/iaprecord')),
  exchange: loadOnce(() => import('../pages/admin/exchange')),
  exchangerecord: loadOnce(() => import('../pages/admin/exchangerecord')),
  selfapp: loadOnce(() => import('../pages/admin/selfapp')),
  selfapprecord: loadOnce(() => import('../pages/admin/selfapprecord')),
  feedback: loadOnce(() => import('../pages/admin/feedback')),
  feedbackv2: loadOnce(() => import('../pages/admin/feedbackv2')),
  unsplash: loadOnce(() => import('../pages/admin/unsplash')),
  soundeffect: loadOnce(() => import('../pages/admin/soundeffect')),
  a11t: loadOnce(() => import('../pages/admin/a11t')),
  upload: loadOnce(() => import('../pages/admin/upload')),
  help: loadOnce(() => import('../pages/admin/help')),
  message: loadOnce(() => import('../pages/admin/message')),
  coin: loadOnce(() => import('../pages/admin/coin')),
  audit: loadOnce(() => import('../pages/admin/audit')),
  loginlog: loadOnce(() => import('../pages/admin/loginlog')),
  reviewreward: loadOnce(() => import('../pages/admin/reviewreward')),
  allocation: loadOnce(() => import('../pages/admin/allocation')),
  online: loadOnce(() => import('../pages/admin/online')),
  account: loadOnce(() => import('../pages/admin/account')),
  inbox: loadOnce(() => import('../pages/admin/inbox')),
  clienterror: loadOnce(() => import('../pages/admin/clienterror')),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

/** Starts downloading a page's code (e.g. when the pointer is on its menu entry); the page loads it again from there. */
export function loadPageCode(key: string): void {
  const load = (adminPageChunks as Record<string, () => Promise<unknown>>)[key];
  // A failure shows when the page itself asks for its code.
  load?.().catch(() => undefined);
}
