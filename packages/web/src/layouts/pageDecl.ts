import type { ComponentType } from 'react';

/** The menu's groups, in order: 22 flat entries did not fit a 768 px high screen. */
export const adminMenuGroups = [
  { key: 'overview', label: '概览' },
  { key: 'people', label: '用户与消息' },
  { key: 'release', label: '版本与配置' },
  { key: 'commerce', label: '商业化' },
  { key: 'content', label: '内容与素材' },
  { key: 'system', label: '系统' },
] as const;
export type AdminMenuGroup = (typeof adminMenuGroups)[number]['key'];

/**
 * What an admin page says about itself in its folder's `page.ts` (pages/admin/<key>/page.ts): the
 * console finds every such file, so the page's menu entry, route, tab and lazy chunk need no list.
 * A page opens for an operator holding its `<key>.read` of the permission catalog
 * (@appdesk/contract/permissions; layouts/pageAccess.ts); a page the catalog does not name (个人中心,
 * 消息中心) is every operator's own.
 */
export interface PageDecl {
  label: string;
  /** The menu group it sits in (see adminMenuGroups). */
  group: AdminMenuGroup;
  /** An icon component of @ant-design/icons. */
  icon: ComponentType<{ 'aria-hidden'?: boolean }>;
  /** Place in the menu, within the group: lower first (steps of 10 leave room between). */
  order: number;
  /** false: reached from the header (个人中心, 消息中心), not listed in the side menu. */
  inMenu?: false;
  /**
   * One line under the page's title (and the menu entry's tooltip) saying what feeds the page, for
   * pages an operator could take for one another (站内消息 and 消息中心, 意见反馈 and 反馈工单).
   */
  hint?: string;
}

/** A page's declaration, checked against PageDecl. */
export const definePage = (decl: PageDecl): PageDecl => decl;

/** The page key of a file under pages/admin/ (`../pages/admin/users/page.ts` → `users`). */
export const pageKeyOfFile = (file: string): string => file.split('/').at(-2) ?? file;

/** A page's address in the console. */
export const adminPath = (key: string): string => `/admin/admin/${key}`;
