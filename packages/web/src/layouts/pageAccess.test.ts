import { builtinRoles, type EndpointPermission, permissionPages, withPageReads } from '@appdesk/contract/permissions';
import { describe, expect, it } from 'vitest';
import { adminPages } from './adminPages';
import { landingPageFor, linkAllowed, menuPagesFor, pageAllowed, pageOfUrl, pagePermission } from './pageAccess';

/** `can` of an operator holding one built-in role (as the server grants it: each page's read added). */
function holding(role: keyof typeof builtinRoles) {
  const held = new Set<string>(withPageReads(builtinRoles[role].permissions));
  return (permission: EndpointPermission) => permission === 'any-operator' || held.has(permission);
}
const nothing = (permission: EndpointPermission) => permission === 'any-operator';
const menuOf = (can: (p: EndpointPermission) => boolean) => menuPagesFor(adminPages, can).map((p) => p.key);

describe('the side menu lists the pages the operator may read', () => {
  it('a page opens with its `read`; 个人中心 and 消息中心 (no catalog entry) open to every operator', () => {
    expect(pagePermission('order')).toBe('order.read');
    expect(pagePermission('account')).toBeNull();
    expect(pagePermission('inbox')).toBeNull();
    expect(pageAllowed('account', nothing)).toBe(true);
    expect(pageAllowed('inbox', nothing)).toBe(true);
    expect(pageAllowed('order', nothing)).toBe(false);
    // Every other console page is in the catalog: none is open by being forgotten.
    const open = adminPages.filter((p) => pagePermission(p.key) === null).map((p) => p.key);
    expect(open.sort()).toEqual(['account', 'inbox']);
  });

  it('客服: feedback, messages, users and orders; no 版本管理, no 订单 exports (the menu does not show actions)', () => {
    const menu = menuOf(holding('support'));
    expect(menu).toEqual(expect.arrayContaining(['dashboard', 'users', 'message', 'feedback', 'feedbackv2', 'order']));
    expect(menu).not.toContain('version');
    expect(menu).not.toContain('allocation');
    expect(menu).not.toContain('audit');
    // Reached from the header, never menu entries.
    expect(menu).not.toContain('account');
    expect(menu).not.toContain('inbox');
  });

  it('财务: orders, in-app purchase records and the coin ledger, but no 版本管理', () => {
    const menu = menuOf(holding('finance'));
    expect(menu).toEqual(expect.arrayContaining(['order', 'iaprecord', 'coin']));
    expect(menu).not.toContain('version');
    expect(menu).not.toContain('feedback');
  });

  it('超级管理员 and 只读审计 see every menu page, in menu order', () => {
    const every = (permission: EndpointPermission) => permission !== undefined;
    const listed = adminPages.filter((p) => p.inMenu !== false).map((p) => p.key);
    expect(menuOf(every)).toEqual(listed);
    expect(menuOf(holding('auditor'))).toEqual(listed.filter((key) => key in permissionPages));
  });

  it('no role: an empty menu', () => {
    expect(menuOf(nothing)).toEqual([]);
  });
});

describe('the landing page', () => {
  it('is 数据统计 when allowed, else the first menu page, else none (the no-role console)', () => {
    expect(landingPageFor(adminPages, holding('support'))).toBe('dashboard');
    const withoutDashboard = (permission: EndpointPermission) =>
      permission !== 'dashboard.read' && holding('finance')(permission);
    const first = menuOf(withoutDashboard)[0];
    expect(landingPageFor(adminPages, withoutDashboard)).toBe(first);
    expect(first).not.toBe('dashboard');
    expect(landingPageFor(adminPages, nothing)).toBeNull();
  });
});

describe('links to other console pages', () => {
  it('name their page and are links only where the operator may go', () => {
    expect(pageOfUrl('/admin/admin/users?search=3&detail=3')).toBe('users');
    expect(pageOfUrl('/admin/admin/coin')).toBe('coin');
    expect(pageOfUrl('/legal/privacy')).toBeNull();
    const finance = holding('finance');
    expect(linkAllowed('/admin/admin/coin?userId=3', finance)).toBe(true);
    expect(linkAllowed('/admin/admin/feedback?status=pending', finance)).toBe(false);
    expect(linkAllowed('/admin/admin/inbox', nothing)).toBe(true);
    expect(linkAllowed('https://example.com/', nothing)).toBe(true);
  });
});
