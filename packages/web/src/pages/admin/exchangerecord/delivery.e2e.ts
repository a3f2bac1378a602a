import { admin, api, ensureSiteReady, expectNotice, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { appUserWithCoins } from '../exchange/e2e-steps';
import { pickUser, shipRecord } from './e2e-steps';

/**
 * Issue 27, done-when 3: a physical redemption is shipped from the console with the receiver's
 * whole phone (an audited look, in the list and the 发货 dialog) and from the warehouse export,
 * which carries the whole number and whose log row says so; 补发 picks the user by phone.
 */
test('exchange records: the receiver phone for shipping, the export, 补发', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const itemName = `台灯${tag}`;
  const made = await api(
    '/api/exchange/item/make',
    { name: itemName, kind: 'physical', costCoins: 100, stock: 5, enabled: true },
    adminToken,
  );
  const itemId = made.data?.item.id as number;
  const { phone, token: userToken } = await appUserWithCoins(adminToken, 300);
  const receiverPhone = `135${tag}77`;
  const masked = `${receiverPhone.slice(0, 3)}****${receiverPhone.slice(7)}`;
  const delivery = { receiverName: '周八', receiverPhone, address: '江苏省南京市玄武区中山路 18 号' };
  expect((await api('/api/exchange/make', { itemId, ...delivery }, userToken)).code).toBe(200);
  const looks = async () =>
    (await api('/api/audit/fetch/page', { action: 'exchange.record.fetch.phone', size: 100 }, adminToken)).data
      ?.total as number;
  const looksBefore = await looks();

  await signInAdmin(page);
  await page.goto(`/admin/admin/exchangerecord?itemId=${itemId}`);
  const row = page.locator('.ant-table-row', { hasText: itemName });
  await expect(row).toContainText(masked);
  await expect(row).not.toContainText(phone);
  await row.getByRole('button', { name: '查看完整收货手机号' }).click();
  await expect(row).toContainText(receiverPhone);

  await row.getByRole('button', { name: '发货' }).click();
  const ship = page.getByRole('dialog', { name: '发货' });
  await expect(ship).toContainText(masked);
  await ship.getByRole('button', { name: '查看完整收货手机号' }).click();
  await expect(ship).toContainText(receiverPhone);
  await shoot(page, 'exchangerecord-ship-phone');
  await ship.getByRole('button', { name: '取消' }).click();
  await expect(ship).toBeHidden();
  expect(await looks()).toBe(looksBefore + 2);
  await shipRecord(page, row, '中通快递', `ZT${tag}01`);
  await expect(row).toContainText(`中通快递 ZT${tag}01`);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await (await download).path());
  const cells = JSON.stringify(book.worksheets[0].getSheetValues());
  expect(cells).toContain(receiverPhone);
  expect(cells).not.toContain(phone);
  const exported = await api('/api/audit/fetch/page', { action: 'exchange.record.export', size: 1 }, adminToken);
  expect(exported.data?.list[0].changes).toContainEqual(
    expect.objectContaining({ label: '含个人信息', after: '收货人完整手机号' }),
  );

  await page.getByRole('button', { name: '补发' }).click();
  const compensate = page.getByRole('dialog', { name: '补发兑换商品' });
  await pickUser(page, compensate, '用户', phone, `${phone.slice(0, 3)}****${phone.slice(7)}`);
  await compensate.getByLabel('商品').fill(itemName);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: itemName }).click();
  await compensate.getByLabel('收货人').fill('周八');
  await compensate.getByLabel('收货手机号').fill(receiverPhone);
  await compensate.getByLabel('收货地址').fill('江苏省南京市玄武区中山路 18 号');
  await compensate.getByLabel('补发原因').fill('快递破损，客服补偿');
  await shoot(page, 'exchangerecord-compensate');
  await expectNotice(page, '已补发', () => compensate.getByRole('button', { name: '补发' }).click());
  await expect(compensate).toBeHidden();
  await expect(page.locator('.ant-table-row', { hasText: '运营补发：快递破损，客服补偿' })).toHaveCount(1);
  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 20 }, userToken);
  expect(JSON.stringify(unread.list)).toContain(`运营人员为您补发了“${itemName}”`);
  await shoot(page, 'exchangerecord-after');
});
