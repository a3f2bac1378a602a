import { admin, api, ensureSiteReady, expectNotice, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { appUserWithCoins } from '../exchange/e2e-steps';
import { approveClaim, claimReview, rejectClaim } from './e2e-steps';

/** Issue 11, done-when 1 (reviews): one claim approved with the set coins, another rejected with a reason. */
test('review rewards: approve with the configured coins, reject with a reason, the user is told', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const { phone, token: userToken } = await appUserWithCoins(adminToken, 0);
  const coinsBefore = (await api('/api/users/fetch/info', {}, userToken)).data?.user.coins as number;
  expect((await claimReview(userToken, 'huawei')).code).toBe(200);
  expect((await claimReview(userToken, 'xiaomi')).code).toBe(200);
  // A value other than the saved one, so 保存 is enabled on a retry against the same site too.
  const saved = (await api('/api/reviewreward/fetch/settings', {}, adminToken)).data?.coins;
  const reward = saved === 120 ? 130 : 120;
  const notices = await api('/api/notices/fetch', {}, adminToken);
  expect(notices.data?.some((n) => n.type === 'review')).toBe(true);

  await signInAdmin(page);
  await page.goto(`/admin/admin/reviewreward?status=pending&phone=${phone}`);
  await page.getByLabel('奖励金币').fill(String(reward));
  await expectNotice(page, '好评奖励金币已保存，只影响之后通过的申请', () =>
    page.getByRole('button', { name: '保存', exact: true }).click(),
  );
  const rows = page.locator('.ant-table-row');
  await expect(rows).toHaveCount(2);
  await shoot(page, 'reviewreward-list');

  await approveClaim(page, rows.filter({ hasText: '华为' }));
  await expect(rows).toHaveCount(1);
  await rejectClaim(page, rows.first(), '截图中没有看到五星好评', {
    beforeConfirm: () => shoot(page, 'reviewreward-reject'),
  });
  await expect(rows).toHaveCount(0);

  expect((await api('/api/users/fetch/info', {}, userToken)).data?.user.coins).toBe(coinsBefore + reward);
  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 50 }, userToken);
  const titles = (unread.list ?? []).map((m) => m.title);
  expect(titles).toEqual(expect.arrayContaining(['好评奖励已发放', '好评奖励申请未通过']));

  await page.goto(`/admin/admin/reviewreward?phone=${phone}`);
  await expect(rows.filter({ hasText: '已通过' })).toContainText(`+${reward} 金币`);
  await expect(rows.filter({ hasText: '已驳回' })).toContainText('截图中没有看到五星好评');
  await shoot(page, 'reviewreward-all');
});
