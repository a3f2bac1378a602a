import { admin, api, ensureSiteReady, expectNotice, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { appUserWithCoins } from '../exchange/e2e-steps';
import { pickUser } from '../exchangerecord/e2e-steps';

/** Issue 27: a message goes to one user picked by nickname or phone, not by a numeric id typed in. */
test('messages: send to one user picked by nickname', async ({ page }) => {
  test.setTimeout(90_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const tag = String(Date.now()).slice(-6);
  const { phone, token: userToken } = await appUserWithCoins(adminToken, 0);
  const nickname = `小林${tag}`;
  expect((await api('/api/users/update/info', { nickname }, userToken)).code).toBe(200);
  const title = `发货提醒${tag}`;

  await signInAdmin(page);
  await page.goto('/admin/admin/message');
  await page.getByRole('button', { name: '发送消息' }).click();
  const modal = page.getByRole('dialog', { name: '发送消息' });
  await modal.getByLabel('标题').fill(title);
  await modal.getByLabel('内容').fill('您的包裹已到驿站，请及时领取。');
  await modal.getByRole('radio', { name: '指定用户' }).check();
  await pickUser(page, modal, '接收用户', nickname, `${phone.slice(0, 3)}****${phone.slice(7)}`);
  await expect(modal).toContainText(nickname);
  await shoot(page, 'message-pick-user');
  await expectNotice(page, '消息已发送', () => modal.getByRole('button', { name: '发送' }).click());
  await expect(modal).toBeHidden();
  const row = page.locator('.ant-table-row', { hasText: title });
  await expect(row).toContainText(`${phone.slice(0, 3)}****${phone.slice(7)}`);
  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 50 }, userToken);
  expect((unread.list ?? []).map((m) => m.title)).toContain(title);
  await shoot(page, 'message-list');
});
