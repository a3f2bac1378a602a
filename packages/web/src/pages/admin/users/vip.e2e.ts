import { api, ensureSiteReady, expectNotice, freshPhone, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

test('an operator extends a user’s VIP in an app with a reason; the list, the drawer, the history and the app agree', async ({
  page,
}) => {
  await ensureSiteReady();
  const phone = freshPhone('137');
  const registered = await api('/api/users/register', {
    phone,
    password: sha256('User12345'),
    app: 'tailor',
    channel: 'huawei',
  });
  expect(registered.code).toBe(200);
  const userId = (registered.data?.user as { id: number } | undefined)?.id as number;
  const userToken = registered.data?.token as string;

  await signInAdmin(page);
  await page.goto(`/admin/admin/users?detail=${userId}`);
  const drawer = page.getByRole('dialog', { name: '用户详情' });
  await expect(drawer.getByText('该用户还没有会员变动记录')).toBeVisible();
  await drawer.getByRole('button', { name: '调整会员' }).click();
  const modal = page.getByRole('dialog', { name: /调整会员/ });
  // VIP is per app: the form names the app it adjusts (the default app unless the console works in another).
  await expect(modal.getByText('滚动截屏当前到期')).toBeVisible();
  await modal.getByLabel('调整天数').fill('30');
  await modal.getByLabel('原因').fill('客服补偿');
  await expectNotice(page, '会员时长已调整', () => modal.getByRole('button', { name: '确认调整' }).click());
  await expect(drawer.getByText('+30 天')).toBeVisible();
  await expect(drawer.getByText('客服补偿')).toBeVisible();
  await expect(drawer.getByText('有效')).toBeVisible();
  await shoot(page, 'users-vip-drawer');

  const info = await api('/api/users/fetch/info', {}, userToken);
  const expires = Date.parse(info.data?.user.vipExpiresAt ?? '');
  expect(expires - Date.now()).toBeGreaterThan(29.9 * 86_400_000);

  await page.goto(`/admin/admin/users?search=${phone}`);
  const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
  await expect(page.locator('.ant-table-row', { hasText: masked })).toContainText('有效');
  await page.goto('/admin/admin/audit');
  await expect(page.getByText('调整会员时长').first()).toBeVisible();
});
