import { admin, api, ensureSiteReady, expectNotice, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

/**
 * Issue 27: 复制商品 from a row (here changing the type), the editor opening on the unlisted copy;
 * the copy is saved under a new name and the original is untouched.
 */
test('exchange items: copy an item into a new type and edit the copy', async ({ page }) => {
  test.setTimeout(90_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const name = `月卡${tag}`;
  const made = await api(
    '/api/exchange/item/make',
    { name, kind: 'vip_days', value: 30, costCoins: 300, enabled: true, sort: 90 },
    adminToken,
  );
  expect(made.code).toBe(200);

  await signInAdmin(page);
  await page.goto('/admin/admin/exchange');
  const row = page.locator('tr.ant-table-row:visible', { hasText: name });
  await row.getByRole('button', { name: '复制' }).click();
  const modal = page.getByRole('dialog', { name: '复制商品' });
  await expect(modal.getByRole('radio', { name: '会员天数' })).toBeChecked();
  await modal.getByRole('radio', { name: '金币' }).check();
  await shoot(page, 'exchange-copy');
  await expectNotice(page, '已复制为新商品（未上架），请检查后上架', () =>
    modal.getByRole('button', { name: '复制并编辑' }).click(),
  );
  const drawer = page.getByRole('dialog', { name: '编辑兑换商品' });
  await expect(drawer.getByLabel('商品名称')).toHaveValue(`${name}（副本）`);
  await drawer.getByLabel('商品名称').fill(`金币包${tag}`);
  await drawer.getByLabel('发放金币').fill('500');
  await expectNotice(page, '兑换商品已保存', () => drawer.getByRole('button', { name: '保存' }).click());
  await expect(drawer).toBeHidden();
  const copy = page.locator('tr.ant-table-row:visible', { hasText: `金币包${tag}` });
  await expect(copy).toContainText('500 金币');
  await expect(copy).toContainText('已下架');
  await expect(row).toContainText('会员 30 天');
  await shoot(page, 'exchange-after-copy');
});
