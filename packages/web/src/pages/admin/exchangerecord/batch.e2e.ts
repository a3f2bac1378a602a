import { admin, api, ensureSiteReady, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { appUserWithCoins } from '../exchange/e2e-steps';

/**
 * Issue 28: several redemptions are shipped at once, one tracking number each; a record cancelled
 * meanwhile fails on its own, and the result dialog names it with the reason.
 */
test('exchange records: batch ship with a per-record result', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const itemName = `保温杯${tag}`;
  const made = await api(
    '/api/exchange/item/make',
    { name: itemName, kind: 'physical', costCoins: 100, stock: 10, enabled: true },
    adminToken,
  );
  const itemId = made.data?.item.id as number;
  const { token: userToken } = await appUserWithCoins(adminToken, 500);
  const delivery = { receiverName: '吴九', receiverPhone: `136${tag}55`, address: '浙江省杭州市余杭区文一西路 9 号' };
  for (let i = 0; i < 3; i += 1) {
    expect((await api('/api/exchange/make', { itemId, ...delivery }, userToken)).code).toBe(200);
  }
  const records = (
    await api('/api/exchange/record/fetch/page', { itemId, sort: 'createdAt', order: 'ascend' }, adminToken)
  ).data?.list as { id: number; recordNo: string }[];
  expect(records).toHaveLength(3);
  // Cancelled after the operator's list was drawn: the batch must fail this one alone.
  const gone = records[1];

  await signInAdmin(page);
  await page.goto(`/admin/admin/exchangerecord?itemId=${itemId}`);
  const rows = page.locator('.ant-table-row', { hasText: itemName });
  await expect(rows).toHaveCount(3);
  for (const record of records) {
    await page.locator('.ant-table-row', { hasText: record.recordNo }).getByRole('checkbox').check();
  }
  const bar = page.getByRole('region', { name: '批量操作' });
  await expect(bar).toContainText('已选择 3 条兑换记录');
  await shoot(page, 'exchangerecord-batch-bar');
  expect((await api('/api/exchange/record/cancel', { id: gone.id, note: '用户来电取消' }, adminToken)).code).toBe(200);

  await bar.getByRole('button', { name: '批量发货' }).click();
  const ship = page.getByRole('dialog', { name: '批量发货：共 3 条兑换记录' });
  await ship.getByLabel('快递公司').fill('顺丰速运');
  for (const [index, record] of records.entries()) {
    await ship.getByLabel(record.recordNo).fill(`SF${tag}00${index}`);
  }
  await ship.getByRole('button', { name: '确认发货' }).click();

  const result = page.getByRole('dialog', { name: '批量发货结果' });
  await expect(result).toContainText('成功 2 条，失败 1 条');
  // The failed record is named by its number, with the single action's reason.
  const failed = result.locator('.ant-table-row', { hasText: gone.recordNo });
  await expect(failed).toContainText('该兑换已取消，不能发货');
  await expect(result.locator('.ant-table-row')).toHaveCount(1);
  await shoot(page, 'exchangerecord-batch-result');
  await result.getByRole('button', { name: '知道了' }).click();
  await expect(result).toBeHidden();
  await expect(bar).toBeHidden();

  await expect(page.locator('.ant-table-row', { hasText: records[0].recordNo })).toContainText(`SF${tag}000`);
  await expect(page.locator('.ant-table-row', { hasText: records[2].recordNo })).toContainText(`SF${tag}002`);
  await expect(page.locator('.ant-table-row', { hasText: gone.recordNo })).toContainText('已取消');
});

/** The same bar on another queue: 意见反馈 marked handled in one go, confirmed, with its result. */
test('feedback: batch mark handled from the selection bar', async ({ page }) => {
  await ensureSiteReady();
  const marker = `批量反馈${String(Date.now()).slice(-6)}`;
  for (const n of [1, 2]) {
    const sent = await api('/api/feedback/make', {
      app: 'tailor',
      content: `${marker}-${n}：导出时卡住`,
      contact: 'QQ 12345678',
      deviceId: `${marker}-${n}`,
      deviceModel: 'Mi 14',
      osVersion: 'Android 14',
    });
    expect(sent.code).toBe(200);
  }
  await signInAdmin(page);
  await page.goto(`/admin/admin/feedback?search=${encodeURIComponent(marker)}`);
  const rows = page.locator('.ant-table-row', { hasText: marker });
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await row.getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: '批量操作' });
  await expect(bar).toContainText('已选择 2 条反馈');
  await shoot(page, 'feedback-batch-bar');
  await bar.getByRole('button', { name: '批量标为已处理' }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  const result = page.getByRole('dialog', { name: '批量标为已处理结果' });
  await expect(result).toContainText('成功 2 条，失败 0 条');
  await result.getByRole('button', { name: '知道了' }).click();
  await expect(rows.filter({ hasText: '待处理' })).toHaveCount(0);
  await expect(rows.getByText('已处理', { exact: true })).toHaveCount(2);
});

/** A toggle list: 会员套餐 taken off sale in one go from the selection bar. */
test('plans: batch off sale from the selection bar', async ({ page }) => {
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const name = `批量套餐${String(Date.now()).slice(-6)}`;
  const made = await api(
    '/api/plan/make',
    { app: 'tailor', name, description: '批量下架', price: 990, durationDays: 30, onSale: true },
    adminToken,
  );
  expect(made.code).toBe(200);
  await signInAdmin(page);
  await page.goto('/admin/admin/plan');
  const row = page.locator('.ant-table-row', { hasText: name });
  await row.getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: '批量操作' });
  await expect(bar).toContainText('已选择 1 条套餐');
  await shoot(page, 'plan-batch-bar');
  await bar.getByRole('button', { name: '批量下架' }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  const result = page.getByRole('dialog', { name: '批量下架结果' });
  await expect(result).toContainText('成功 1 条，失败 0 条');
  await result.getByRole('button', { name: '知道了' }).click();
  const plan = (await api('/api/plan/fetch/page', { size: 100 }, adminToken)).data?.list.find(
    (p: { name: string }) => p.name === name,
  ) as { onSale: boolean };
  expect(plan.onSale).toBe(false);
});
