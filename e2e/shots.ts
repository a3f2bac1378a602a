import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** Where page screenshots go for a person to look at (not committed). */
export const shotsDir = process.env.E2E_SHOTS_DIR ?? '/tmp/appdesk-shots';

/** Full-page screenshots of the page as it is, 1366 px and 390 px wide, then back to the desktop size. */
export async function screenshots(page: Page, name: string) {
  mkdirSync(shotsDir, { recursive: true });
  await screenshotsInto(page, shotsDir, name);
}

/** The same into `dir` (which exists). */
export async function screenshotsInto(page: Page, dir: string, name: string) {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  // Tables measure themselves again after a resize: a click before that lands where a button was.
  await page.waitForTimeout(400);
}
