import { readFileSync } from 'node:fs';
import path from 'node:path';
import { admin, api, baseUrl, confirmPop, ensureSiteReady, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

const logo = readFileSync(path.resolve(import.meta.dirname, '../../../../../../e2e/fixtures/logo.png'));

/** A claim as the app sends it: the screenshot and the store as multipart form data. */
async function claim(token: string, store: string) {
  const form = new FormData();
  form.append('store', JSON.stringify(store));
  form.append('screenshot', new Blob([logo]), 'review.png');
  const answer = await fetch(`${baseUrl}/api/reviewreward/make`, { method: 'POST', headers: { token }, body: form });
  return (await answer.json()) as { code: number; data?: { claim: { id: number } } };
}

/** Issue 11, done-when 1 (reviews): one claim approved with the set coins, another rejected with a reason. */
test('review rewards: approve with the configured coins, reject with a reason, the user is told', async ({ page }) => {
  test.setTimeout(60_000);
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const phone = `134${String(Date.now()).slice(-8)}`;
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  const userToken = registered.data?.token as string;
  const coinsBefore = (await api('/api/users/fetch/info', {}, userToken)).data?.user.coins as number;
  expect((await claim(userToken, 'huawei')).code).toBe(200);
  expect((await claim(userToken, 'xiaomi')).code).toBe(200);
  const notices = await api('/api/notices/fetch', {}, adminToken);
  expect(notices.data?.some((n) => n.type === 'review')).toBe(true);

  await signInAdmin(page);
  await page.goto(`/admin/admin/reviewreward?status=pending&phone=${phone}`);
  await page.getByLabel('奖励金币').fill('120');
  await page.getByRole('button', { name: '保存', exact: true }).click();
  await expect(page.getByText('好评奖励金币已保存，只影响之后通过的申请')).toBeVisible();
  const rows = page.locator('.ant-table-row');
  await expect(rows).toHaveCount(2);
  await shoot(page, 'reviewreward-list');

  const huawei = rows.filter({ hasText: '华为' });
  await huawei.getByRole('button', { name: '通过' }).click();
  await confirmPop(page, '通过');
  await expect(page.getByText('已通过，金币已发放')).toBeVisible();
  await expect(rows).toHaveCount(1);

  await rows.first().getByRole('button', { name: '驳回' }).click();
  const modal = page.getByRole('dialog', { name: '驳回好评奖励' });
  await modal.getByLabel('驳回原因').click();
  await page.locator('.ant-select-item-option', { hasText: '截图中没有看到五星好评' }).click();
  await expect(modal.getByLabel('驳回原因')).toHaveValue('截图中没有看到五星好评');
  await shoot(page, 'reviewreward-reject');
  await modal.getByRole('button', { name: '驳回' }).click();
  await expect(page.getByText('已驳回，用户会收到站内消息')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(rows).toHaveCount(0);

  expect((await api('/api/users/fetch/info', {}, userToken)).data?.user.coins).toBe(coinsBefore + 120);
  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 50 }, userToken);
  const titles = (unread.list ?? []).map((m) => m.title);
  expect(titles).toEqual(expect.arrayContaining(['好评奖励已发放', '好评奖励申请未通过']));

  await page.goto(`/admin/admin/reviewreward?phone=${phone}`);
  await expect(rows.filter({ hasText: '已通过' })).toContainText('+120 金币');
  await expect(rows.filter({ hasText: '已驳回' })).toContainText('截图中没有看到五星好评');
  await shoot(page, 'reviewreward-all');
});
