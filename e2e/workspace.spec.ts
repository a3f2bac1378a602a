import { expect, type Page, test } from '@playwright/test';
import { ensureSiteReady, shoot, signInAdmin } from './support';

/**
 * The operator's workspace (issue 12): dark theme, errors that stay, the tab bar and the list
 * toolbar. Uses only its own data and the first admin.
 */
test.describe.configure({ mode: 'serial' });

const html = (page: Page) => page.locator('html');

test('the theme follows the operator’s choice and is remembered', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/dashboard');
  await expect(html(page)).toHaveAttribute('data-theme', 'light');

  await page.getByRole('button', { name: /^界面主题/ }).click();
  await page.getByRole('menuitem', { name: '深色' }).click();
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  // Our own surfaces follow, not only antd's.
  await expect(page.locator('.admin-header')).toHaveCSS('background-color', 'rgb(20, 20, 20)');

  await page.reload();
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('button', { name: '界面主题：深色' })).toBeVisible();
  for (const path of ['dashboard', 'users', 'coin']) {
    await page.goto(`/admin/admin/${path}`);
    await expect(page.locator('.admin-content')).not.toBeEmpty();
    await shoot(page, `workspace-dark-${path}`);
  }

  // 跟随系统: the browser's scheme decides.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: /^界面主题/ }).click();
  await page.getByRole('menuitem', { name: '跟随系统' }).click();
  await expect(html(page)).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(html(page)).toHaveAttribute('data-theme', 'light');
});

test('a failed action’s reason stays on screen until closed', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/dashboard');
  await page.getByRole('button', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改密码' });
  await dialog.getByLabel('原密码').fill('NotMyPassword1');
  await dialog.getByLabel('新密码', { exact: true }).fill('Another12345');
  await dialog.getByLabel('确认新密码').fill('Another12345');
  await dialog.getByRole('button', { name: '确认修改' }).click();
  const notice = page.locator('.ant-notification-notice-error');
  await expect(notice).toHaveCount(1);
  const reason = (await notice.locator('.ant-notification-notice-title').textContent()) ?? '';
  expect(reason).toMatch(/[\u4e00-\u9fa5]/);
  // Success notices close after 1.5 s; an error is still there well after that.
  await page.waitForTimeout(3_000);
  await expect(notice).toBeVisible();
  // The same failure again replaces it instead of stacking.
  await dialog.getByRole('button', { name: '确认修改' }).click();
  await expect(notice).toHaveCount(1);
  await notice.getByRole('button', { name: /关闭|Close/ }).click();
  await expect(notice).toHaveCount(0);
});
