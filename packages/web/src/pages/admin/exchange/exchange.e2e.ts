import { admin, api, ensureSiteReady, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

/**
 * Issue 11, done-when 1 (the shop's part): an operator creates a VIP item in the console and
 * imports three codes by pasting; with a physical item made through the API, an app user redeems
 * each: the VIP days land, the code is handed over, the physical one waits for shipping.
 */
test('exchange items: create, import codes, redeem each kind through the API', async ({ page }) => {
  test.setTimeout(60_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const vipName = `会员周卡${tag}`;
  const codeName = `影视兑换码${tag}`;
  const physicalName = `帆布袋${tag}`;

  await signInAdmin(page);
  await page.goto('/admin/admin/exchange');
  await page.getByRole('button', { name: '新建商品' }).click();
  const drawer = page.getByRole('dialog', { name: '新建兑换商品' });
  await drawer.getByLabel('商品名称').fill(vipName);
  await drawer.getByLabel('商品说明').fill('兑换后立即到账 7 天会员');
  await drawer.getByLabel('会员天数').fill('7');
  await drawer.getByLabel('所需金币').fill('70');
  await drawer.getByLabel('库存', { exact: true }).fill('50');
  await drawer.getByLabel('每人限兑').fill('2');
  await drawer.getByRole('switch', { name: '上架' }).click();
  await shoot(page, 'exchange-editor');
  await drawer.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('兑换商品已创建')).toBeVisible();
  await expect(drawer).toBeHidden();
  const vipRow = page.locator('.ant-table-row', { hasText: vipName });
  await expect(vipRow).toContainText('会员 7 天');
  await expect(vipRow).toContainText('已上架');

  const codeItem = await api(
    '/api/exchange/item/make',
    { name: codeName, kind: 'code', costCoins: 30, enabled: true, sort: 1 },
    adminToken,
  );
  const physical = await api(
    '/api/exchange/item/make',
    { name: physicalName, kind: 'physical', costCoins: 200, stock: 3, enabled: true, sort: 2 },
    adminToken,
  );
  expect([codeItem.code, physical.code]).toEqual([200, 200]);

  await page.reload();
  const codeRow = page.locator('.ant-table-row', { hasText: codeName });
  await codeRow.getByRole('button', { name: '导入兑换码' }).click();
  const modal = page.getByRole('dialog', { name: `导入兑换码：${codeName}` });
  await modal.getByLabel('兑换码').fill(`YS-${tag}-A\nYS-${tag}-B\nYS-${tag}-C`);
  await expect(modal.getByText('已粘贴 3 个')).toBeVisible();
  await shoot(page, 'exchange-codes');
  await modal.getByRole('button', { name: '导入' }).click();
  await expect(page.getByText('已导入 3 个兑换码')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(codeRow.locator('td').nth(3)).toHaveText('3');

  const phone = `137${String(Date.now()).slice(-8)}`;
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  const userToken = registered.data?.token as string;
  const userId = (registered.data?.user as { id: number } | undefined)?.id as number;
  const granted = await api('/api/users/update/coins', { id: userId, delta: 1000, reason: '活动奖励' }, adminToken);
  expect(granted.code).toBe(200);
  const shop = await api('/api/exchange/fetch/list', {});
  const vipId = shop.data?.list.find((i) => i.name === vipName)?.id as number;
  expect(vipId).toBeGreaterThan(0);

  const vip = await api('/api/exchange/make', { itemId: vipId }, userToken);
  expect(vip.data?.record.status).toBe('done');
  const code = await api('/api/exchange/make', { itemId: codeItem.data?.item.id as number }, userToken);
  expect(code.data?.record.code).toBe(`YS-${tag}-A`);
  const box = await api(
    '/api/exchange/make',
    {
      itemId: physical.data?.item.id as number,
      receiverName: '王五',
      receiverPhone: '13912345678',
      address: '浙江省杭州市西湖区文三路 90 号',
    },
    userToken,
  );
  expect(box.data?.record.status).toBe('waiting');
  const info = (await api('/api/users/fetch/info', {}, userToken)).data?.user;
  expect(box.data?.coins).toBe(info?.coins);
  expect(Date.parse(info?.vipExpiresAt ?? '')).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);

  await page.reload();
  await expect(vipRow.locator('td').nth(4)).toHaveText('1');
  await expect(codeRow.locator('td').nth(3)).toHaveText('2');
  await shoot(page, 'exchange-list');
});
