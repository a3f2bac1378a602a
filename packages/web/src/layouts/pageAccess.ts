import {
  type EndpointPermission,
  type Permission,
  permissionLabel,
  permissionPages,
} from '@appdesk/contract/permissions';

/** What the menu needs of a page (AdminPage has more). */
interface PageLike {
  key: string;
  inMenu?: false;
}

type Can = (permission: EndpointPermission) => boolean;

/**
 * The permission that opens a console page: `<page>.read` for every page of the permission
 * catalog; null for the pages every operator has (个人中心, 消息中心: their own account and inbox).
 */
export function pagePermission(key: string): Permission | null {
  return key in permissionPages ? (`${key}.read` as Permission) : null;
}

/** True when the operator may open the page. */
export function pageAllowed(key: string, can: Can): boolean {
  const permission = pagePermission(key);
  return permission === null || can(permission);
}

/** The side menu's pages for the operator: listed ones they may open, in menu order. */
export function menuPagesFor<P extends PageLike>(pages: readonly P[], can: Can): P[] {
  return pages.filter((p) => p.inMenu !== false && pageAllowed(p.key, can));
}

/** The page the console opens on: 数据统计 when allowed, else the operator's first menu page; null: none. */
export function landingPageFor(pages: readonly PageLike[], can: Can): string | null {
  const menu = menuPagesFor(pages, can);
  if (menu.some((p) => p.key === 'dashboard')) return 'dashboard';
  // Pages open to every operator are not a role's work: with only those, the console says no role is given.
  return menu.find((p) => pagePermission(p.key) !== null)?.key ?? null;
}

/** 「订单管理 · 查看」: what the 403 view says is missing for a page. */
export function missingForPage(key: string): string {
  const permission = pagePermission(key);
  return permission ? permissionLabel(permission) : '';
}

/** The console page a link opens (`/admin/admin/users?detail=3` → `users`), or null for other links. */
export function pageOfUrl(url: string): string | null {
  return /^\/admin\/admin\/([^/?#]+)/.exec(url)?.[1] ?? null;
}

/** True unless the link opens a console page the operator may not open (then it is shown as text). */
export function linkAllowed(url: string, can: Can): boolean {
  const key = pageOfUrl(url);
  return key === null || pageAllowed(key, can);
}
