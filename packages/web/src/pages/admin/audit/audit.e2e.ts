import { admin, api, ensureSiteReady, freshPhone, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

test('the 操作日志 shows a change in words, field by field, with links to the operator and the user', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  const phone = freshPhone('137');
  const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  expect(registered.code).toBe(200);
  const userId = (registered.data?.user as { id: number } | undefined)?.id as number;
  const signedIn = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const token = signedIn.data?.token as string;
  expect((await api('/api/users/update/coins', { id: userId, delta: 50, reason: '活动补偿' }, token)).code).toBe(200);
  expect((await api('/api/users/block', { id: userId, reason: '测试' }, token)).code).toBe(200);

  await signInAdmin(page);
  await page.goto('/admin/admin/audit');
  // Filtered by the phone of the user the rows are about (not an internal id).
  await page.getByPlaceholder('用户的 11 位手机号').fill(phone);
  await page.getByPlaceholder('用户的 11 位手机号').press('Enter');
  await expect(page).toHaveURL(new RegExp(`userPhone=${phone}`));
  const rows = page.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  const block = rows.filter({ hasText: '封禁用户' });
  await expect(block).toContainText('状态');
  await expect(block.locator('del')).toHaveText('正常');
  // The status, then the reason the operator gave (none before).
  await expect(block.locator('ins')).toHaveText(['已封禁', '测试']);
  await expect(block).toContainText(`用户 #${userId}`);
  await expect(block).toContainText(masked);
  const coins = rows.filter({ hasText: '调整金币' });
  await expect(coins).toContainText('金币余额');
  await expect(coins).toContainText('活动补偿');
  // The operator: nickname or masked phone, never the whole number.
  await expect(block).toContainText('138****0000');
  await expect(page.locator('body')).not.toContainText(phone);
  await shoot(page, 'audit-words');

  // Filtered by the operator's phone: the admin's sign-in just now is there, in words.
  await page.goto(`/admin/admin/audit?actorPhone=${admin.phone}&action=users.login`);
  // A full load: allow for a busy machine.
  await expect(page.locator('tr.ant-table-row').first()).toContainText('登录后台', { timeout: 30_000 });
  await expect(page.locator('tr.ant-table-row').first()).toContainText('设备');
  await page.goBack();

  // The object opens the user in the users page's drawer.
  await page.setViewportSize({ width: 1366, height: 900 });
  await block.getByRole('link', { name: `用户 #${userId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/admin/users\\?.*detail=${userId}`));
  await expect(page.getByRole('dialog', { name: '用户详情' })).toBeVisible();
});
