import { screenshots } from '@appdesk/e2e/shots';
import { ensureSiteReady, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { makeImage, svg } from '../../../../../server/test/media';

/**
 * The image library end to end: five images dropped at once each show their progress and land
 * with thumbnails and sizes, a refused file says why and can be retried, the large preview opens,
 * the category filter stays in the URL, and images are disabled in bulk.
 */
test.describe.configure({ mode: 'serial' });

test('an operator uploads five images at once, previews, filters and disables in bulk', async ({ page }) => {
  const category = `测试${Date.now() % 1_000_000}`;
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/unsplash');
  await expect(page.getByRole('button', { name: '上传图片' })).toBeVisible();

  await page.getByRole('button', { name: '上传图片' }).click();
  const dialog = page.getByRole('dialog', { name: '上传图片' });
  await dialog.getByLabel('分类').fill(category);
  await dialog.getByLabel('作者').fill('e2e 摄影师');
  const files = await Promise.all(
    [
      [640, 480, 'jpeg'],
      [800, 600, 'png'],
      [300, 300, 'webp'],
      [120, 90, 'gif'],
      [1000, 500, 'jpeg'],
    ].map(async ([w, h, format], i) => ({
      name: `图${i + 1}.${format === 'jpeg' ? 'jpg' : format}`,
      mimeType: `image/${format}`,
      buffer: Buffer.from(await makeImage(w as number, h as number, format as 'png')),
    })),
  );
  await dialog
    .locator('input[type=file]')
    .setInputFiles([...files, { name: '图标.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) }]);
  await expect(dialog.locator('.multi-upload-done')).toHaveCount(5, { timeout: 30_000 });
  const refused = dialog.locator('.multi-upload-failed', { hasText: '图标.svg' });
  await expect(refused).toContainText('只接受图片文件');
  await expect(dialog.getByText('共 6 个文件：成功 5 个，失败 1 个')).toBeVisible();
  await refused.getByRole('button', { name: '重试 图标.svg' }).click();
  await expect(refused).toContainText('只接受图片文件');
  await screenshots(page, 'unsplash-upload');
  await dialog.getByRole('button', { name: '关闭' }).click();
  await expect(dialog).toBeHidden();

  // Filter by the new category: it is kept in the URL and shows exactly the five images.
  await page.getByLabel('分类').click();
  await page.getByTitle(`${category}（5）`).click();
  await expect(page).toHaveURL(new RegExp(`category=${encodeURIComponent(category)}`));
  const cards = page.locator('.unsplash-card');
  await expect(cards).toHaveCount(5);
  await expect(page.locator('.unsplash-card', { hasText: '图1' })).toContainText('640×480');
  await expect(cards.first().locator('img')).toBeVisible();
  await page.reload();
  await expect(cards).toHaveCount(5);

  // The large preview shows the original.
  await page.locator('.unsplash-card', { hasText: '图2' }).locator('.ant-image').click();
  const preview = page.locator('.ant-image-preview-img');
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('src', /\/files\/.+\.png$/);
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  // Disable two in bulk.
  await page.getByLabel('选择 图1').check();
  await page.getByLabel('选择 图2').check();
  await expect(page.getByText('已选 2 张')).toBeVisible();
  const disabled = page.waitForResponse((r) => r.url().endsWith('/api/unsplash/disable'));
  await page.getByRole('toolbar', { name: '批量操作' }).getByRole('button', { name: '停用' }).click();
  await disabled;
  await expect(page.locator('.unsplash-card .unsplash-card-off')).toHaveCount(2);
  await screenshots(page, 'unsplash-grid');

  await page.getByText('列表', { exact: true }).click();
  await expect(page).toHaveURL(/view=list/);
  await expect(page.locator('.ant-table-row')).toHaveCount(5);
  await expect(page.locator('.ant-table-row', { hasText: '图1' })).toContainText('已停用');
  await screenshots(page, 'unsplash-list');
});
