import { admin, api, ensureSiteReady, freshPhone, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

test('the 登录日志 lists a failed and a successful sign-in with device, filters them and exports', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  const phone = freshPhone('136');
  const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
  expect((await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' })).code).toBe(200);
  expect((await api('/api/users/login', { phone, password: sha256('Wrong12345') })).code).toBe(401);
  expect((await api('/api/users/login', { phone, password: sha256('User12345') })).code).toBe(200);

  await signInAdmin(page);
  await page.goto('/admin/admin/loginlog');
  await page.getByPlaceholder('完整的 11 位手机号').fill(phone);
  await page.getByPlaceholder('完整的 11 位手机号').press('Enter');
  const rows = page.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('成功');
  await expect(rows.nth(1)).toContainText('失败：密码错误');
  await expect(rows.nth(0)).toContainText(masked);
  await expect(rows.nth(0)).toContainText('127.0.0.1');
  await expect(page.locator('body')).not.toContainText(phone);

  // By result: only the failure.
  await page.getByLabel('结果').click();
  await page.locator('.ant-select-item-option', { hasText: '失败' }).click();
  await expect(page).toHaveURL(/result=failure/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('密码错误');

  // The operator's own browser sign-in shows as a readable device.
  await page.goto(`/admin/admin/loginlog?phone=${admin.phone}&result=success`);
  // (Not necessarily the newest row: specs beside this one sign the same operator in through the API.)
  await expect(page.locator('tr.ant-table-row', { hasText: /Chrome \d+ · Linux/ }).first()).toBeVisible();
  await shoot(page, 'loginlog');

  // Export: the filtered rows as .xlsx, and the export is in the 操作日志.
  await page.setViewportSize({ width: 1366, height: 900 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/登录日志.*\.xlsx$/);
  await page.goto('/admin/admin/audit?action=loginlog.export');
  await expect(page.locator('tr.ant-table-row').first()).toContainText('导出登录日志');
  await expect(page.locator('tr.ant-table-row').first()).toContainText('登录日志.xlsx');
});
