import { expect, type Page } from '@playwright/test';
import { type SeededRole, seedRoles } from './seed-roles';
import { admin, api, freshPhone, sha256 } from './support';

/**
 * Operators with roles for the specs that look at what each one sees (the console's gating). An
 * account registers and the first admin makes it an administrator through the API, as the
 * console's 设为管理员 does; that operator holds no role until seed-roles.ts gives it some.
 */
export interface Operator {
  id: number;
  phone: string;
  password: string;
}

const password = 'Operator12345';

/** A new operator: an administrator holding the given roles (none: the console's empty state). */
export async function makeOperator(roles: SeededRole[]): Promise<Operator> {
  const phone = freshPhone('137');
  const registered = await api('/api/users/register', { phone, password: sha256(password), app: 'tailor' });
  expect(registered.code).toBe(200);
  const id = registered.data?.user.id as number;
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const granted = await api('/api/users/update/admin', { id, isAdmin: true }, login.data?.token as string);
  expect([granted.code, granted.message]).toEqual([200, granted.message]);
  if (roles.length) seedRoles(id, roles, phone);
  return { id, phone, password };
}

/**
 * Signs the operator in with every menu group open and the menu expanded, as they are remembered
 * per browser (set once: the operator's later choices stand).
 */
export async function signInOperator(page: Page, operator: Operator) {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('e2e.menu.set')) return;
    sessionStorage.setItem('e2e.menu.set', '1');
    localStorage.setItem('appdesk.menu.collapsed', '0');
    localStorage.setItem(
      'appdesk.menu.open',
      JSON.stringify(['overview', 'people', 'release', 'commerce', 'content', 'system'].map((g) => `group-${g}`)),
    );
  });
  await page.goto('/user/login');
  await page.getByLabel('手机号').fill(operator.phone);
  await page.getByLabel('密码').fill(operator.password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\//);
}

/** Collapses the side menu (remembered), so a phone-width picture shows the page, not the menu's drawer. */
export async function collapseMenu(page: Page) {
  await page.getByRole('button', { name: '收起菜单' }).click();
  await expect(page.getByRole('button', { name: '展开菜单' })).toBeVisible();
}

/** The side menu's entries as the operator sees them. */
export async function menuEntries(page: Page): Promise<string[]> {
  const menu = page.locator('nav[aria-label="管理菜单"] .admin-menu');
  await expect(menu.getByRole('menuitem').first()).toBeVisible();
  return (await menu.locator('.ant-menu-item').allInnerTexts()).map((text) => text.trim());
}
