import { admin, api, ensureSiteReady, expectNotice, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { appUserWithCoins } from '../exchange/e2e-steps';
import { shipRecord } from './e2e-steps';

/**
 * Issue 11, done-when 1 (records): a physical redemption waits; the operator ships it with a
 * tracking number and the user sees the message; another is cancelled and its coins come back.
 */
test('exchange records: ship with a tracking number, cancel with a refund', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const itemName = `保温杯${tag}`;
  const made = await api(
    '/api/exchange/item/make',
    { name: itemName, kind: 'physical', costCoins: 150, stock: 5, enabled: true },
    adminToken,
  );
  const itemId = made.data?.item.id as number;
  const { phone, token: userToken } = await appUserWithCoins(adminToken, 300);
  const coinsBefore = (await api('/api/users/fetch/info', {}, userToken)).data?.user.coins as number;
  const delivery = { receiverName: '陈七', receiverPhone: '13912345678', address: '四川省成都市武侯区天府大道 88 号' };
  for (let i = 0; i < 2; i++) {
    const answer = await api('/api/exchange/make', { itemId, ...delivery }, userToken);
    expect(answer.data?.record.status).toBe('waiting');
  }

  await signInAdmin(page);
  await page.goto(`/admin/admin/exchangerecord?status=waiting&phone=${phone}`);
  await expect(page.getByRole('tab', { name: '待发货', selected: true })).toBeVisible();
  const rows = page.locator('.ant-table-row', { hasText: itemName });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('139****5678');
  await shoot(page, 'exchangerecord-list');

  await shipRecord(page, rows.first(), '顺丰速运', `SF${tag}0001`, () => shoot(page, 'exchangerecord-ship'));
  await expect(rows).toHaveCount(1);

  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 20 }, userToken);
  expect(JSON.stringify(unread.list)).toContain(`SF${tag}0001`);

  await rows.first().getByRole('button', { name: '取消' }).click();
  const cancel = page.getByRole('dialog', { name: '取消兑换' });
  await cancel.getByLabel('取消原因').fill('地址无法送达');
  await expectNotice(page, '已取消兑换，金币和库存已退回', () =>
    cancel.getByRole('button', { name: '取消兑换并退回金币' }).click(),
  );
  await expect(cancel).toBeHidden();
  await expect(rows).toHaveCount(0);
  expect((await api('/api/users/fetch/info', {}, userToken)).data?.user.coins).toBe(coinsBefore - 150);

  await page.goto(`/admin/admin/exchangerecord?phone=${phone}`);
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: '已发货' })).toContainText(`顺丰速运 SF${tag}0001`);
  await expect(rows.filter({ hasText: '已取消' })).toContainText('地址无法送达');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/兑换记录.*\.xlsx$/);
  await shoot(page, 'exchangerecord-all');
});
