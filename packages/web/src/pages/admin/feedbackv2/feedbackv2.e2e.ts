import { screenshots } from '@appdesk/e2e/shots';
import { api, confirmPop, ensureSiteReady, freshPhone, noticesClosed, sha256, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';

/**
 * Issue 9, done-when 1 (feedback v2): a user opens a thread through the API, the operators' bell
 * counts it, an operator answers with a canned reply written on the page, the user's app shows the
 * answer unread, and the operator closes the thread.
 */
test('feedback v2: a thread counted in the bell, answered with a canned reply, unread for the user, closed', async ({
  page,
}) => {
  await ensureSiteReady();
  const phone = freshPhone('134');
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  expect(registered.code).toBe(200);
  const token = registered.data?.token as string;
  const marker = `会员未到账${String(Date.now()).slice(-6)}`;
  const opened = await api(
    '/api/feedbackv2/make',
    { app: 'tailor', category: 'payment', content: `${marker}，扣款成功但会员没开通`, deviceModel: 'Mi 14' },
    token,
  );
  expect([opened.code, opened.message]).toEqual([200, opened.message]);
  const threadId = opened.data?.thread.id as number;

  await signInAdmin(page);
  await page.goto('/admin/admin/feedbackv2');
  // The bell counts the thread (besides whatever else waits) and lists it under 反馈工单.
  const bell = page.getByRole('button', { name: /^通知（\d+ 条）$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  const notice = page.locator('.notice-item', { hasText: marker });
  await expect(notice).toBeVisible();
  await expect(page.getByRole('region', { name: '反馈工单' })).toBeVisible();

  // A canned reply, written on the page.
  const cannedTitle = `补开会员${String(Date.now()).slice(-5)}`;
  await bell.click();
  await expect(notice).toBeHidden();
  await page.getByRole('button', { name: '快捷回复模板' }).click();
  const cannedModal = page.getByRole('dialog', { name: '快捷回复模板' });
  await cannedModal.getByLabel('模板名称').fill(cannedTitle);
  await cannedModal.getByLabel('模板内容').fill('您好，已为您补开会员，请重启 App 查看。');
  await cannedModal.getByRole('button', { name: '添加模板' }).click();
  await expect(cannedModal.getByText(cannedTitle)).toBeVisible();
  await cannedModal.getByRole('button', { name: '关闭', exact: true }).click();
  await expect(cannedModal).toBeHidden();

  const row = page.locator('.ant-table-row', { hasText: marker });
  await expect(row).toContainText('用户有新留言');
  await screenshots(page, 'feedbackv2');

  // Opening it from the bell reads it.
  await bell.click();
  const read = page.waitForResponse((r) => r.url().endsWith('/api/feedbackv2/read'));
  await page.locator('.notice-item', { hasText: marker }).click();
  const drawer = page.getByRole('dialog', { name: `反馈会话 #${threadId}` });
  await expect(drawer).toContainText(marker);
  expect((await (await read).json()).code).toBe(200);

  await drawer.getByRole('combobox', { name: '快捷回复' }).click();
  await page.locator('.ant-select-item-option', { hasText: cannedTitle }).click();
  await expect(drawer.getByLabel('回复内容')).toHaveValue('您好，已为您补开会员，请重启 App 查看。');
  const replied = page.waitForResponse((r) => r.url().endsWith('/api/feedbackv2/reply'));
  await drawer.getByRole('button', { name: '发送回复' }).click();
  expect((await (await replied).json()).code).toBe(200);
  await expect(drawer.locator('.thread-post-admin')).toContainText('已为您补开会员');
  await expect(drawer.getByText('已回复')).toBeVisible();
  await screenshots(page, 'feedbackv2-thread');

  // The user's app shows the answer unread, until the thread is opened.
  const mine = await api('/api/feedbackv2/fetch/mine', {}, token);
  expect(mine.data?.list.find((t) => t.id === threadId)).toMatchObject({ unread: 1, status: 'replied' });
  expect(mine.data?.unreadTotal).toBe(1);

  await drawer.getByRole('button', { name: '关闭会话' }).click();
  await confirmPop(page, '关闭');
  await expect(drawer.getByText('已关闭')).toBeVisible();
  const thread = await api('/api/feedbackv2/fetch/thread', { id: threadId }, token);
  expect(thread.data?.thread.status).toBe('closed');
  expect(thread.data?.posts.map((p) => p.from)).toEqual(['user', 'admin']);
  expect((await api('/api/feedbackv2/fetch/mine', {}, token)).data?.unreadTotal).toBe(0);

  // Answered and closed: gone from the bell.
  await drawer.getByRole('button', { name: '关闭', exact: true }).click();
  await expect(drawer).toBeHidden();
  // The notices sit over the header's right side, where the bell is.
  await noticesClosed(page);
  await page.getByRole('button', { name: /^通知(（\d+ 条）)?$/ }).click();
  await expect(page.locator('.notice-panel')).toBeVisible();
  await expect(page.locator('.notice-item', { hasText: marker })).toHaveCount(0);
});

test('feedback v2: a link to a thread that does not exist says so', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/feedbackv2?thread=2147483000');
  await expect(page.locator('.ant-result-title', { hasText: '会话不存在' })).toBeVisible();
});
