import { admin, api, ensureSiteReady, expectNotice, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

/** A 1 × 1 PNG for the icon. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Issue 9, done-when 1 (promotion): an operator creates a promotion app with an icon and a 50-coin
 * reward; two users' apps report show, click and (20 times at once each) install; the records page
 * shows the totals, and the ledger pays each user once.
 */
test('promotion apps: icon and reward set up, installs raced, totals and ledger', async ({ page }) => {
  test.setTimeout(240_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const name = `天气${tag}`;

  await signInAdmin(page);
  await page.goto('/admin/admin/selfapp');
  await page.getByRole('button', { name: '新建推广应用' }).click();
  const drawer = page.getByRole('dialog', { name: '新建推广应用' });
  await drawer.getByLabel('应用名称').fill(name);
  await drawer
    .locator('.image-slot input[type=file]')
    .setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: png });
  await expect(drawer.getByRole('img', { name: '当前应用图标' })).toBeVisible();
  await drawer.getByLabel('应用简介').fill('分钟级降雨提醒');
  await drawer.getByLabel('安卓包名').fill(`com.example.weather${tag}`);
  await drawer.getByLabel('安卓下载地址').fill(`https://example.com/weather${tag}.apk`);
  await drawer.getByLabel('App Store 地址').fill('https://apps.apple.com/cn/app/id1234567890');
  await drawer.getByLabel('安装奖励').fill('50');
  await shoot(page, 'selfapp-editor');
  await expectNotice(page, '推广应用已创建', () => drawer.getByRole('button', { name: '保存' }).click());
  await expect(drawer).toBeHidden();
  const row = page.locator('tr.ant-table-row', { hasText: name });
  await expect(row).toContainText('50 金币');
  await expect(row.getByRole('img', { name: `${name}的图标` })).toBeVisible();
  await shoot(page, 'selfapp-list');

  const found = await api('/api/selfapp/fetch/page', { size: 200 }, adminToken);
  const selfappId = found.data?.list.find((s) => s.name === name)?.id as number;
  expect(selfappId).toBeGreaterThan(0);
  const listed = await api('/api/selfapp/fetch/list', { app: 'tailor', platform: 'android' });
  expect(listed.data?.list.find((s) => s.id === selfappId)).toMatchObject({ rewardCoins: 50, rewarded: false });

  const users: { id: number; token: string; phone: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const phone = `136${tag}${String(i).padStart(2, '0')}`;
    const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
    expect(registered.code).toBe(200);
    users.push({
      phone,
      token: registered.data?.token as string,
      id: (registered.data?.user as { id: number } | undefined)?.id as number,
    });
  }
  const device = { app: 'tailor', platform: 'android', channel: 'huawei' } as const;
  const rewards: number[] = [];
  for (const [i, user] of users.entries()) {
    const deviceId = `e2e-${tag}-${i}`;
    for (const action of ['show', 'click'] as const) {
      expect((await api('/api/selfapp/report', { id: selfappId, action, deviceId, ...device }, user.token)).code).toBe(
        200,
      );
    }
    const race = await Promise.all(
      Array.from({ length: 20 }, () =>
        api('/api/selfapp/report', { id: selfappId, action: 'install', deviceId, ...device }, user.token),
      ),
    );
    expect(race.every((r) => r.code === 200)).toBe(true);
    rewards.push(race.filter((r) => r.data?.rewarded === 50).length);
    expect((await api('/api/users/fetch/info', {}, user.token)).data?.user.coins).toBeGreaterThanOrEqual(50);
  }
  expect(rewards).toEqual([1, 1]);

  await page.goto(`/admin/admin/selfapprecord?selfappId=${selfappId}`);
  const totals = page.locator('.selfapp-totals tr.ant-table-row', { hasText: name });
  // Both users saw and clicked it once; each sent 20 installs, and each was paid 50 coins once.
  await expect(totals).toBeVisible({ timeout: 60_000 });
  await expect(totals.locator('td')).toHaveText([name, '2', '2', '40', '100.00%', '2000.00%', '2', '100']);
  await expect(page.locator('tr.ant-table-row', { hasText: 'e2e-' }).first()).toBeVisible({ timeout: 60_000 });
  await shoot(page, 'selfapprecord');
  await page.goto(`/admin/admin/selfapprecord?selfappId=${selfappId}&action=install&sort=coins`);
  const paid = page.locator('tr.ant-table-row', { hasText: '+50' });
  await expect(paid).toHaveCount(2, { timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/推广记录.*\.xlsx$/);

  for (const user of users) {
    await page.goto(`/admin/admin/coin?userId=${user.id}&reason=selfapp`);
    const ledger = page.locator('tr.ant-table-row');
    await expect(ledger).toHaveCount(1, { timeout: 30_000 });
    await expect(ledger).toContainText('推广奖励');
    await expect(ledger).toContainText('+50');
  }
  await shoot(page, 'selfapp-ledger');
});
