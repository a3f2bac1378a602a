import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { shotsDir } from './shots';
import { ensureSiteReady, signInAdmin } from './support';

/**
 * The bell's panel opens inside the window at every width: on a 390 px phone it opened mostly off
 * the left edge and widened the page (placement bottomRight only flips, it never shifts).
 */
test('the bell’s panel stays inside the window on a phone and on a desktop', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/admin/admin/dashboard');
    await page.getByRole('button', { name: /^通知/ }).click();
    const panel = page.locator('.ant-popover:not(.ant-popover-hidden)').filter({ hasText: '通知' });
    await expect(panel).toBeVisible();
    await expect
      .poll(async () => {
        const box = await panel.boundingBox();
        return box ? box.x >= 0 && box.x + box.width <= width : false;
      })
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    mkdirSync(shotsDir, { recursive: true });
    await page.screenshot({ path: `${shotsDir}/bell-open-${width}.png` });
    await page.keyboard.press('Escape');
  }
});
