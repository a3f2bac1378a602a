import { admin, api, cellOf, ensureSiteReady, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { appUserWithCoins, createItem, importCodes } from './e2e-steps';

/**
 * Issue 11, done-when 1 (the shop's part): an operator creates a VIP item in the console and
 * imports three codes by pasting; with a physical item made through the API, an app user redeems
 * each: the VIP days land, the code is handed over, the physical one waits for shipping.
 */
test('exchange items: create, import codes, redeem each kind through the API', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const vipName = `会员周卡${tag}`;
  const codeName = `影视兑换码${tag}`;
  const physicalName = `帆布袋${tag}`;

  await signInAdmin(page);
  await page.goto('/admin/admin/exchange');
  await createItem(
    page,
    {
      name: vipName,
      kind: 'vip_days',
      description: '兑换后立即到账 7 天会员',
      value: 7,
      costCoins: 70,
      stock: 50,
      perUserLimit: 2,
    },
    () => shoot(page, 'exchange-editor'),
  );
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
  await importCodes(page, codeName, [`YS-${tag}-A`, `YS-${tag}-B`, `YS-${tag}-C`], () => shoot(page, 'exchange-codes'));
  await expect(await cellOf(codeRow, '库存')).toHaveText('3');

  const { token: userToken } = await appUserWithCoins(adminToken, 1000);
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
  await expect(await cellOf(vipRow, '已兑换')).toHaveText('1');
  await expect(await cellOf(codeRow, '库存')).toHaveText('2');
  await shoot(page, 'exchange-list');
});
