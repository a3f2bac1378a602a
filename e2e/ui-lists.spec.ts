import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { adminPages } from '../packages/web/src/layouts/adminPages';
import { shotsDir } from './shots';
import { admin, api, ensureSiteReady, sha256, signInAdmin } from './support';

/**
 * Every admin list page gets what the list kit gives (components/list): at 390 × 844 the first row
 * starts on the first screen, 详情 opens a detail view and the column settings are there; at 1366
 * the same. Screenshots of each at 1366 and 390 px go to the shots folder for a person to look at.
 */

/** Menu pages that are not lists (a dashboard, a settings form). */
const notLists = new Set(['dashboard', 'allocation']);
const lists = adminPages.filter((p) => p.inMenu !== false && !notLists.has(p.key));

/** A few rows for lists a fresh site leaves empty: the contract's own example of each write. */
async function seed() {
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const token = login.data?.token as string;
  for (const [feature, path] of [
    ['message', '/api/message/make'],
    ['help', '/api/help/make'],
    ['plan', '/api/plan/make'],
    ['iap', '/api/iap/make'],
    ['selfapp', '/api/selfapp/make'],
  ] as const) {
    const table = (await import(`../packages/contract/src/endpoints/${feature}.ts`)).default as Record<
      string,
      { example?: Record<string, unknown> }
    >;
    await api(path, { ...table[path]?.example } as never, token);
  }
}

/** The first row of the list: a card on a phone, a table row on a desktop. */
const firstRow = (page: Page) => page.locator('.list-phone-card, .list-table .ant-table-row').first();

async function loaded(page: Page) {
  await expect(page.locator('.list-view').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.list-view .ant-spin-spinning')).toHaveCount(0, { timeout: 20_000 });
}

test.describe.configure({ mode: 'serial' });

test('every admin list: first row on the first phone screen, 详情 and 列设置 at 390 and 1366 px', async ({ page }) => {
  test.setTimeout(600_000);
  expect(lists.length, 'admin list pages').toBeGreaterThanOrEqual(24);
  mkdirSync(shotsDir, { recursive: true });
  await ensureSiteReady();
  await seed();
  await signInAdmin(page);
  const empty: string[] = [];
  const tops: Record<string, number> = {};
  for (const { key, label } of lists) {
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // A page with a view of its own (图片素材's grid) shows its list with view=list.
      await page.goto(`/admin/admin/${key}?view=list`);
      await loaded(page);
      const view = page.locator('.list-view').first();
      await expect.soft(view.getByRole('button', { name: '列设置' }), `${label} 列设置 at ${width}`).toBeVisible();
      if ((await firstRow(page).count()) === 0) {
        if (width === 390) empty.push(label);
        await expect.soft(view.locator('.list-empty'), `${label}: the empty state at ${width}`).toBeInViewport();
      } else {
        const top = (await firstRow(page).boundingBox())?.y ?? Number.POSITIVE_INFINITY;
        if (width === 390) tops[label] = Math.round(top);
        expect
          .soft(top, `${label}: the first row starts at ${top} px at ${width}`)
          .toBeLessThan(width === 390 ? 844 : 900);
        const detail = firstRow(page).getByRole('button', { name: '详情', exact: true });
        await expect.soft(detail, `${label} 详情 at ${width}`).toBeInViewport();
        await detail.click();
        const dialog = page.locator('.ant-drawer-content-wrapper:visible, .ant-modal-wrap:visible').last();
        await expect.soft(dialog, `${label}: 详情 opens a detail view at ${width}`).toBeVisible();
        await page.screenshot({ path: `${shotsDir}/lists-${key}-detail-${width}.png` });
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      }
      await page.screenshot({ path: `${shotsDir}/lists-${key}-${width}.png`, fullPage: true });
    }
  }
  console.log(`first row's top at 390 × 844 (px): ${JSON.stringify(tops)}; empty lists: ${JSON.stringify(empty)}`);
});
