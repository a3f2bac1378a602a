import { expect, test } from '@playwright/test';
import { admin, api, ensureSiteReady, sha256, signInAdmin } from './support';

/**
 * Issue 7 in the console: an administrator whose password someone else chose changes it on the
 * login page before the console opens; every sign-in attempt shows up in the 登录日志.
 */
test.describe.configure({ mode: 'serial' });

const randomPhone = () => `15${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const shots = process.env.E2E_SHOTS;

test('an operator reset makes the next console sign-in change the password first', async ({ page, browser }) => {
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  // A second administrator, whose password the first one then resets.
  const phone = randomPhone();
  const registered = await api('/api/users/register', { phone, password: sha256('Second123'), app: 'tailor' });
  const id = (registered.data as { user: { id: number } }).user.id;
  expect((await api('/api/users/update/admin', { id, isAdmin: true }, adminToken)).code).toBe(200);
  // The first admin resets it in the user drawer: the new initial password is shown once.
  const operator = await browser.newPage();
  await signInAdmin(operator);
  await operator.goto(`/admin/admin/users?detail=${id}`);
  const drawer = operator.getByRole('dialog', { name: '用户详情' });
  // A dangerous action: under 更多, with a reason for the operation log.
  await drawer.getByRole('button', { name: '更多操作' }).click();
  await operator.getByRole('menuitem', { name: '重置密码', exact: true }).click();
  const ask = operator.getByRole('dialog', { name: /重置密码/ });
  await ask.getByLabel('原因').fill('e2e 忘记密码');
  await ask.getByRole('button', { name: '重置', exact: true }).click();
  const shown = operator.getByRole('dialog', { name: '新的初始密码' });
  await expect(shown).toContainText(`${phone.slice(0, 3)}****${phone.slice(7)}`);
  const initial = (await shown.locator('code').innerText()).trim();
  expect(initial).toMatch(/^[A-Za-z0-9]{10}$/);
  if (shots) {
    await operator.screenshot({ path: `${shots}/reset-password-1366.png` });
    await operator.setViewportSize({ width: 390, height: 844 });
    await operator.screenshot({ path: `${shots}/reset-password-390.png` });
  }
  await shown.getByRole('button', { name: '我已告知用户，关闭' }).click();
  await expect(drawer).toContainText('待修改初始密码');
  await operator.close();

  await page.goto('/user/login');
  await page.getByLabel('手机号').fill(phone);
  await page.getByLabel('密码').fill(initial);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('heading', { name: '修改初始密码' })).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login/);
  if (shots) {
    await page.screenshot({ path: `${shots}/forced-change-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/forced-change-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
  }

  // Leaving for the console without changing it comes straight back here.
  await page.goto('/admin/admin/dashboard');
  await expect(page).toHaveURL(/\/user\/login\?change=1/);
  await expect(page.getByLabel('当前密码')).toBeVisible();
  await page.getByLabel('当前密码').fill(initial);
  await page.getByLabel('新密码', { exact: true }).fill('Chosen2026');
  await page.getByLabel('确认新密码').fill('Chosen2026');
  await page.getByRole('button', { name: '修改密码并继续' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/dashboard/);
  // The new password works; the initial one no longer does.
  expect((await api('/api/users/login', { phone, password: sha256('Chosen2026') })).code).toBe(200);
  expect((await api('/api/users/login', { phone, password: sha256(initial) })).code).toBe(401);
});

test('the 登录日志 lists every attempt, filtered by result and phone', async ({ page }) => {
  await ensureSiteReady();
  const phone = randomPhone();
  expect((await api('/api/users/login', { phone, password: sha256('nobody-here') })).code).toBe(401);
  await signInAdmin(page);
  // The old address of the 登录日志 (a tab of 操作日志) leads to its own page.
  await page.goto('/admin/admin/audit?view=login');
  await expect(page).toHaveURL(/\/admin\/admin\/loginlog/);
  const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
  await expect(page.locator('.ant-table-row', { hasText: masked })).toContainText('手机号未注册');
  await page.getByPlaceholder('完整的 11 位手机号').fill(phone);
  await page.getByPlaceholder('完整的 11 位手机号').press('Enter');
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await page.getByPlaceholder('完整的 11 位手机号').fill(admin.phone);
  await page.getByPlaceholder('完整的 11 位手机号').press('Enter');
  await expect(page.locator('.ant-table-row').first()).toContainText('成功');
  await expect(page.locator('body')).not.toContainText(admin.phone);
  if (shots) {
    await page.screenshot({ path: `${shots}/login-log-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/login-log-390.png`, fullPage: true });
  }
  // The operation log has the operator's reset in words.
  await page.goto('/admin/admin/audit');
  await expect(page.getByText('重置密码').first()).toBeVisible();
});
