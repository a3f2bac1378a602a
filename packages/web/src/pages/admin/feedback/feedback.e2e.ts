import { screenshots } from '@appdesk/e2e/shots';
import { api, ensureSiteReady, freshPhone, sha256, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';

/**
 * Issue 9, done-when 1 (feedback v1): a signed-in app user sends feedback with a screenshot through
 * the API, an operator looks at the image large and replies in the console, and the user finds
 * the reply among their unread messages.
 */
test('feedback v1: sent with an image through the API, replied in the console, read as an unread message', async ({
  page,
}) => {
  await ensureSiteReady();
  const phone = freshPhone('135');
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  expect(registered.code).toBe(200);
  const token = registered.data?.token as string;

  const screenshot = await sharp({ create: { width: 360, height: 640, channels: 3, background: '#4f8ef7' } })
    .png()
    .toBuffer();
  // Uploaded signed in, the screenshot is the account's: the feedback below attaches it by id alone.
  const uploaded = await page.request.post('/api/feedback/upload', {
    headers: { token },
    multipart: { file: { name: '截图.png', mimeType: 'image/png', buffer: screenshot } },
  });
  const image = (await uploaded.json()).data as { id: number; url: string };
  expect(image.url).toMatch(/^\/files\//);

  const marker = `拼接闪退${String(Date.now()).slice(-6)}`;
  const sent = await api(
    '/api/feedback/make',
    {
      app: 'tailor',
      content: `${marker}：长截图拼接到第 5 张时闪退，附截图。`,
      contact: '微信 tailor_fan',
      images: [image.id],
      version: '2.3.1',
      channel: 'huawei',
      deviceModel: 'HUAWEI Mate 60',
      osVersion: 'HarmonyOS 4.0',
      deviceId: `e2e-${marker}`,
    },
    token,
  );
  expect([sent.code, sent.message]).toEqual([200, sent.message]);
  const unreadBefore = (await api('/api/message/fetch/page/unread', { page: 0, size: 1024 }, token)).total ?? 0;

  await signInAdmin(page);
  await page.goto(`/admin/admin/feedback?search=${encodeURIComponent(marker)}`);
  const row = page.locator('.ant-table-row', { hasText: marker });
  await expect(row).toBeVisible();
  await expect(row.getByText('待处理')).toBeVisible();
  await expect(row).toContainText('HUAWEI Mate 60');
  await expect(row).toContainText('华为');
  // The thumbnail opens large.
  await row.getByRole('img', { name: '图片 1' }).click();
  await expect(page.locator('.ant-image-preview-img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-image-preview-img')).toBeHidden();
  await screenshots(page, 'feedback');

  await row.getByRole('button', { name: '回复' }).click();
  const modal = page.getByRole('dialog', { name: '回复反馈' });
  await expect(modal).toContainText(marker);
  await modal.getByLabel('回复内容').fill('感谢反馈！该问题已在 2.3.2 版本修复，请更新后再试。');
  await screenshots(page, 'feedback-reply');
  const replied = page.waitForResponse((r) => r.url().endsWith('/api/feedback/reply'));
  await modal.getByRole('button', { name: '发送回复' }).click();
  expect((await (await replied).json()).code).toBe(200);
  await expect(modal).toBeHidden();
  await expect(row.getByText('已处理')).toBeVisible();
  await expect(row).toContainText('回复：感谢反馈');

  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 1024 }, token);
  expect(unread.total).toBe(unreadBefore + 1);
  expect(unread.list?.[0]).toMatchObject({ title: '你的意见反馈有了回复' });
  expect(unread.list?.[0].content).toContain('2.3.2 版本修复');

  // The filter lives in the URL: pending only, and the answered feedback is gone from it.
  await page.goto(`/admin/admin/feedback?status=pending&search=${encodeURIComponent(marker)}`);
  await expect(page.getByText('没有符合筛选条件', { exact: false })).toBeVisible();
});
