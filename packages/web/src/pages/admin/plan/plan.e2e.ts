import { api, ensureSiteReady, expectNotice, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

test('an operator creates a plan in yuan; the app sees it on sale in fen, and a price change is logged', async ({
  page,
}) => {
  await ensureSiteReady();
  await signInAdmin(page);
  const name = `年度会员${String(Date.now()).slice(-5)}`;

  await page.goto('/admin/admin/plan');
  await page.getByRole('button', { name: '新建套餐' }).click();
  const drawer = page.getByRole('dialog', { name: '新建套餐' });
  await drawer.getByLabel('套餐名称').fill(name);
  await drawer.getByLabel('售价（元）').fill('98');
  await expect(drawer.getByText('玖拾捌元整')).toBeVisible();
  await drawer.getByLabel('原价（元，可不填）').fill('198.5');
  await expect(drawer.getByText('壹佰玖拾捌元伍角')).toBeVisible();
  await drawer.getByLabel('时长（天）').fill('365');
  await drawer.getByLabel('赠送金币').fill('500');
  await drawer.getByLabel('iOS 内购商品 ID').fill('com.example.tailor.vip.year');
  await drawer.getByLabel('角标').fill('限时优惠');
  await drawer.getByRole('switch', { name: '上架' }).click();
  await shoot(page, 'plan-editor');
  await expectNotice(page, '会员套餐已创建', () => drawer.getByRole('button', { name: '保存' }).click());

  const row = page.locator('.ant-table-row', { hasText: name });
  await expect(row).toContainText('¥98.00');
  await expect(row).toContainText('¥198.50');
  await expect(row).toContainText('365 天');
  await expect(row).toContainText('在售');
  await expect(row).toContainText('限时优惠');

  const onSale = await api('/api/plan/fetch/onsale', { app: 'tailor', platform: 'ios' });
  const listed = onSale.data?.list.find((p) => p.name === name);
  expect(listed).toMatchObject({ price: 9800, originalPrice: 19850, durationDays: 365, bonusCoins: 500 });

  // The status filter is kept in the URL.
  await page.goto('/admin/admin/plan?onSale=false');
  await expect(page.locator('.ant-table-row', { hasText: name })).toHaveCount(0);
  await page.goto('/admin/admin/plan?onSale=true');
  await row.getByRole('button', { name: '编辑' }).click();
  const editor = page.getByRole('dialog', { name: '编辑套餐' });
  await expect(editor.getByLabel('售价（元）')).toHaveValue('98.00');
  await editor.getByLabel('售价（元）').fill('88');
  await editor.getByRole('button', { name: '保存' }).click();
  await expect(row).toContainText('¥88.00');
  await shoot(page, 'plan-list');
  await page.goto('/admin/admin/audit');
  await expect(page.getByText('修改会员套餐').first()).toBeVisible();
});
