import { screenshots } from '@appdesk/e2e/shots';
import { ensureSiteReady, expectNotice, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { makeApk } from '../../../../../server/test/packages';

/**
 * The uploads page end to end: files sent through the finder upload show progress and land in the
 * list with their kind, size, sha256 and uses; a slow upload can be cancelled; an unused file is
 * deleted, a used one cannot be.
 */
test.describe.configure({ mode: 'serial' });

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test('an operator uploads files with progress, cancels a slow one, and deletes an unused one', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/upload');
  await expect(
    page.getByText('还没有上传过文件', { exact: false }).or(page.locator('.ant-table-row').first()),
  ).toBeVisible();

  const chooser = page.locator('.upload-progress input[type=file]');
  await chooser.setInputFiles({ name: '封面.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('上传成功').first()).toBeVisible();
  await expect(page.getByRole('progressbar', { name: '文件上传进度' })).toHaveAttribute('aria-valuenow', '100');
  const imageRow = page.locator('.ant-table-row', { hasText: '封面.png' });
  await expect(imageRow).toContainText('图片');
  await expect(imageRow).toContainText('未被引用');
  await expect(imageRow.locator('img')).toBeVisible();

  const apk = Buffer.from(makeApk({ package: 'com.appdesk.tailor', versionCode: 100, versionName: '1.0.0' }));
  await chooser.setInputFiles({ name: 'tailor-1.0.0.apk', mimeType: 'application/octet-stream', buffer: apk });
  const apkRow = page.locator('.ant-table-row', { hasText: 'tailor-1.0.0.apk' });
  await expect(apkRow).toContainText('安装包');

  // A slow connection: a 3 MB package at 256 KB/s, cancelled on the way.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 50,
    downloadThroughput: 1024 * 1024,
    uploadThroughput: 256 * 1024,
  });
  const big = Buffer.from(
    makeApk({ package: 'com.appdesk.tailor', versionCode: 101, versionName: '1.0.1' }, 3 * 1024 * 1024),
  );
  await chooser.setInputFiles({ name: 'slow.apk', mimeType: 'application/octet-stream', buffer: big });
  await expect(page.getByText('正在上传…')).toBeVisible();
  await page.getByRole('button', { name: '取消上传' }).click();
  await expect(page.getByText('已取消上传')).toBeVisible();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(page.locator('.ant-table-row', { hasText: 'slow.apk' })).toHaveCount(0);

  await screenshots(page, 'upload');

  await imageRow.getByRole('button', { name: '删除' }).click();
  await expectNotice(page, '文件已删除', () =>
    page.locator('.ant-popconfirm:visible').getByRole('button', { name: '删除', exact: true }).click(),
  );
  await expect(imageRow).toHaveCount(0);
});
