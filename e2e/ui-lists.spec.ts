import { mkdirSync, readdirSync } from 'node:fs';
import type { ApiPath } from '@appdesk/contract/types';
import { expect, type Page, test } from '@playwright/test';
import { adminPageDeclarations } from './adminPages';
import { shotsDir } from './shots';
import { admin, api, ensureSiteReady, freshPhone, sha256, signInOwnAdmin } from './support';

/**
 * Every admin list page gets what the list kit gives (components/list): at 390 × 844 the first row
 * starts on the first screen, 详情 opens a detail view and the column settings are there; at 1366
 * the same. Screenshots of each at 1366 and 390 px go to the shots folder for a person to look at.
 */

/** Menu pages that are not lists (a dashboard, a settings form). */
const notLists = new Set(['dashboard', 'allocation']);
const lists = adminPageDeclarations.filter((p) => p.inMenu && !notLists.has(p.key));

type Body = Record<string, unknown>;
const endpointsDir = new URL('../packages/contract/src/endpoints/', import.meta.url);
/** The contract's example body of `path` (its entry is in one of packages/contract/src/endpoints/*.ts). */
async function example(path: string): Promise<Body> {
  // A feature's endpoint table is its file's default export; `<f>.rules.ts` beside it holds rules only.
  for (const file of readdirSync(endpointsDir).filter((f) => /^[a-z0-9]+\.ts$/.test(f) && f !== 'index.ts')) {
    const table = (await import(new URL(file, endpointsDir).href)).default as Record<string, { example?: Body }>;
    if (table?.[path]) return { ...table[path].example };
  }
  throw new Error(`${path} is not in the contract`);
}

/**
 * Rows for lists a fresh site leaves empty, from the contract's own examples: an admin's writes,
 * then a user's (feedback, a ticket, an order, a client error). A write that fails leaves its list
 * empty, which the test then reports.
 */
async function seed() {
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const token = login.data?.token as string;
  const stamp = String(Date.now()).slice(-6);
  const writes: [string, Body, 'admin' | 'user'][] = [
    ['/api/message/make', {}, 'admin'],
    ['/api/help/make', { title: `列表检查 ${stamp}` }, 'admin'],
    ['/api/plan/make', {}, 'admin'],
    ['/api/iap/make', {}, 'admin'],
    ['/api/selfapp/make', {}, 'admin'],
    ['/api/version/make', { versionName: `7.${stamp}`, versionCode: Number(stamp) }, 'admin'],
    ['/api/exchange/item/make', {}, 'admin'],
    ['/api/a11t/make', { key: `lists.flag_${stamp}` }, 'admin'],
    ['/api/feedback/make', {}, 'user'],
    ['/api/feedbackv2/make', {}, 'user'],
    ['/api/clienterror/report', {}, 'user'],
    ['/api/order/make', {}, 'user'],
    ['/api/selfapp/report', {}, 'user'],
  ];
  const registered = await api('/api/users/register', {
    phone: freshPhone('171'),
    password: sha256('User12345'),
    app: 'tailor',
    channel: 'huawei',
  });
  const userToken = registered.data?.token as string;
  const userId = registered.data?.user.id as number;
  await api('/api/users/update/coins', { id: userId, delta: 100, reason: '列表检查' }, token);
  const failed: string[] = [];
  for (const [path, extra, who] of writes) {
    const body = { ...(await example(path)), ...extra };
    const answer: { code: number; message: string } = await api(
      path as ApiPath,
      body as never,
      who === 'admin' ? token : userToken,
    );
    if (answer.code !== 200) failed.push(`${path}: ${answer.message}`);
  }
  // A redemption (兑换记录): the user exchanges coins for VIP days.
  const item = await api(
    '/api/exchange/item/make',
    { name: `会员 7 天 ${stamp}`, kind: 'vip_days', value: 7, costCoins: 10, enabled: true } as never,
    token,
  );
  const itemId = (item.data as { item?: { id: number } } | undefined)?.item?.id as number;
  const redeemed = await api('/api/exchange/make', { itemId }, userToken);
  if (redeemed.code !== 200) failed.push(`/api/exchange/make: ${redeemed.message}`);
  if (failed.length) console.log(`seed writes that failed: ${failed.join('; ')}`);
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
  await signInOwnAdmin(page);
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
        await dialog.locator('.ant-drawer-close, .ant-modal-close').first().click();
        await expect(dialog).toBeHidden();
      }
      await page.screenshot({ path: `${shotsDir}/lists-${key}-${width}.png`, fullPage: true });
    }
  }
  console.log(`first row's top at 390 × 844 (px): ${JSON.stringify(tops)}; empty lists: ${JSON.stringify(empty)}`);
});
