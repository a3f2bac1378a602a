import { admin, api, ensureSiteReady, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';

const card = (page: Page, key: string) => page.locator(`[data-card="${key}"]`);
const figure = async (page: Page, key: string) =>
  Number(((await card(page, key).locator('.ant-statistic-content').innerText()) ?? '').replace(/[,\s]/g, ''));

test('the dashboard counts a new user and a paid order; a card opens its list filtered', async ({ page }) => {
  test.setTimeout(60_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;

  await signInAdmin(page);
  await page.goto('/admin/admin/dashboard');
  await expect(card(page, 'usersNewToday')).toBeVisible();
  // Fresh figures before: the page's refresh recomputes them.
  const before = page.waitForResponse((r) => r.url().includes('/api/dashboard/fetch/cards'));
  await page.getByRole('button', { name: '刷新', exact: true }).click();
  await before;
  await expect(page.getByRole('button', { name: '刷新', exact: true })).not.toHaveClass(/loading/);
  const usersBefore = await figure(page, 'usersNewToday');
  const revenueBefore = await figure(page, 'revenueToday');

  const plan = await api(
    '/api/plan/make',
    { name: `统计套餐${String(Date.now()).slice(-5)}`, price: 1234, durationDays: 7, onSale: true },
    adminToken,
  );
  expect(plan.code).toBe(200);
  const phone = `135${String(Date.now()).slice(-8)}`;
  const userToken = (await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' })).data
    ?.token as string;
  const ordered = await api(
    '/api/order/make',
    { planId: plan.data?.plan.id as number, payMethod: 'wechat' },
    userToken,
  );
  expect(ordered.code).toBe(200);
  expect(
    (await api('/api/order/pay', { id: ordered.data?.order.id as number, note: '统计测试' }, adminToken)).code,
  ).toBe(200);

  // Five seconds must pass before a refresh recomputes (the answer is otherwise kept up to 60 s).
  await page.waitForTimeout(5_200);
  const after = page.waitForResponse((r) => r.url().includes('/api/dashboard/fetch/cards'));
  await page.getByRole('button', { name: '刷新', exact: true }).click();
  await after;
  await expect.poll(() => figure(page, 'usersNewToday')).toBe(usersBefore + 1);
  await expect.poll(() => figure(page, 'revenueToday')).toBeCloseTo(revenueBefore + 12.34, 2);
  await shoot(page, 'dashboard');

  await card(page, 'revenueToday').click();
  await expect(page).toHaveURL(/\/admin\/admin\/order\?status=paid/);
  await expect(page.locator('.ant-table-row').first()).toContainText('已支付');
});
