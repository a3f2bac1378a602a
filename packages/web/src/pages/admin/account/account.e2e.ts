import {
  admin,
  api,
  baseUrl,
  confirmPop,
  ensureSiteReady,
  expectNotice,
  freshPhone,
  sha256,
  shoot,
  signInAdmin,
} from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

/**
 * The operator's own corner: 个人中心 (profile and own sessions), 消息中心 (own messages, from the
 * bell) and 在线用户 (every live session, 强制下线).
 */
test('an operator edits the profile and signs another of their sessions out', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  // Another device of the same operator, named by its User-Agent: other specs running beside this
  // one sign the same operator in too, so "the newest other session" may not be this one.
  const device = `E2EPhone/${String(Date.now()).slice(-6)}`;
  const signedIn = await fetch(`${baseUrl}/api/users/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': device },
    body: JSON.stringify({ phone: admin.phone, password: sha256(admin.password) }),
  });
  const other = ((await signedIn.json()) as { data: { token: string } }).data.token;

  await page.getByRole('button', { name: /^个人中心/ }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/account$/);
  const nickname = `值班${String(Date.now()).slice(-4)}`;
  await page.getByLabel('昵称').fill(nickname);
  await page.getByRole('button', { name: '保存资料' }).click();
  await expect(page.getByText('资料已保存').first()).toBeVisible();
  await expect(page.locator('.admin-user')).toContainText(nickname);

  // The watermark: on the users page by default, then on every page, then off; remembered.
  const watermark = page.locator('.admin-content [style*="background-image"]');
  await expect(watermark).toHaveCount(0);
  await page.getByText('所有页面', { exact: true }).click();
  await expect(watermark).toHaveCount(1);
  await page.getByText('用户、流水、订单等页面', { exact: true }).click();
  await expect(watermark).toHaveCount(0);
  await page.goto('/admin/admin/users');
  await expect(watermark).toHaveCount(1);
  await page.goBack();

  const sessions = page.locator('.ant-card').filter({ hasText: '登录会话' });
  await expect(sessions.getByText('当前会话')).toBeVisible();
  await shoot(page, 'account');
  await sessions
    .getByRole('row')
    .filter({ hasText: device.replace('/', ' ') })
    .getByRole('button', { name: '下线', exact: true })
    .click();
  await expectNotice(page, '该会话已下线', () => confirmPop(page, '下线'));
  expect((await api('/api/users/fetch/info', {}, other)).code).toBe(401);
  // This session lives on.
  await page.reload();
  await expect(page.locator('.admin-user')).toContainText(nickname);
  await api(
    '/api/users/update/info',
    { nickname: '管理员' },
    (await page.evaluate(() => localStorage.getItem('token'))) ?? '',
  );
});

test('在线用户 lists a user’s live session with the phone masked, and 强制下线 ends it', async ({ page }) => {
  await ensureSiteReady();
  const phone = freshPhone('136');
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  expect(registered.code).toBe(200);
  const userToken = registered.data?.token as string;

  await signInAdmin(page);
  await page.goto(`/admin/admin/online?phone=${phone}`);
  const row = page.getByRole('row').filter({ hasText: `${phone.slice(0, 3)}****${phone.slice(7)}` });
  await expect(row).toHaveCount(1);
  await expect(page.getByText(phone)).toHaveCount(0);
  await shoot(page, 'online');
  await row.getByRole('button', { name: '强制下线' }).click();
  await expectNotice(page, '已强制下线', () => confirmPop(page, '强制下线'));
  await expect(row).toHaveCount(0);
  expect((await api('/api/users/fetch/info', {}, userToken)).code).toBe(401);
});

test('a message to the operator is in 消息中心, unread first, and reading it clears the count', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
  const me = (await api('/api/users/fetch/info', {}, token)).data?.user.id as number;
  const title = `值班提醒 ${Date.now()}`;
  expect((await api('/api/message/make', { title, content: '今晚 22 点发版', userId: me }, token)).code).toBe(200);

  await page.reload();
  await page.getByRole('button', { name: /^通知/ }).click();
  await page.getByRole('button', { name: '消息中心' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/inbox$/);
  // Newest unread first (other specs' unread messages to every user come after it).
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toContainText(title);
  await shoot(page, 'inbox');
  // Read, it moves down below the unread ones: follow it by its title.
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: title });
  await row.getByRole('button', { name: '标为已读' }).click();
  await expect(row.getByRole('button', { name: '标为未读' })).toBeVisible();
  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 1024 }, token);
  expect(unread.list?.some((m) => m.title === title)).toBe(false);
});

test('Tab and Shift+Tab leave the empty date range on 金币流水 and 操作日志', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  for (const list of ['coin', 'audit']) {
    await page.goto(`/admin/admin/${list}`);
    const start = page.getByPlaceholder('开始日期');
    await start.focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: '查询' })).toBeFocused();
    await start.focus();
    await page.keyboard.press('Shift+Tab');
    await expect(start).not.toBeFocused();
    await expect(page.getByPlaceholder('结束日期')).not.toBeFocused();
  }
});
