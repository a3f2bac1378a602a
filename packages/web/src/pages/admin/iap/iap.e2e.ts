import { confirmPop, ensureSiteReady, expectNotice, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

test('an operator adds an in-app product priced in yuan, filters by platform and disables it', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  const suffix = String(Date.now()).slice(-6);
  const name = `包月${suffix}`;
  const productId = `com.example.tailor.month${suffix}`;

  await page.goto('/admin/admin/iap');
  await page.getByRole('button', { name: '新建商品' }).click();
  const drawer = page.getByRole('dialog', { name: '新建内购商品' });
  await drawer.getByLabel('商品 ID').fill(productId);
  await drawer.getByLabel('商品名称').fill(name);
  await drawer.getByLabel('价格（元）').fill('18');
  await expect(drawer.getByText('壹拾捌元整')).toBeVisible();
  await drawer.getByLabel('发放会员天数').fill('31');
  await shoot(page, 'iap-editor');
  await expectNotice(page, '内购商品已创建', () => drawer.getByRole('button', { name: '保存' }).click());
  await expect(drawer).toBeHidden();

  const row = page.locator('.ant-table-row', { hasText: name });
  await expect(row).toContainText('¥18.00');
  await expect(row).toContainText('会员 31 天');
  await expect(row).toContainText('自动续期订阅');
  await expect(row.locator('.ant-tag')).toHaveText('启用');

  await page.goto('/admin/admin/iap?platform=android');
  await expect(page.locator('.ant-table-row', { hasText: name })).toHaveCount(0);
  await page.goto('/admin/admin/iap?platform=ios');
  await row.getByRole('button', { name: '停用' }).click();
  await confirmPop(page, '停用');
  await expect(row.locator('.ant-tag')).toHaveText('停用');
  await shoot(page, 'iap-list');
});
