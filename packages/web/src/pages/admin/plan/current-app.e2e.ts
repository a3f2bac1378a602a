import { DEFAULT_APP, DEFAULT_APP_NAME } from '@appdesk/contract/constants';
import { admin, api, cellOf, ensureSiteReady, expectNotice, sha256, signInAdmin } from '@appdesk/e2e/support';
import { expect, type Locator, type Page, test } from '@playwright/test';

/**
 * Creating in the context of one app (issue 29): with a second app chosen in the header, a new plan
 * is that app's and the list shows that app's plans, naming the app; under 全部应用 a new plan starts in the default app and
 * the operator may choose the other one. Apps are shown by name, never by code.
 */
const CURRENT_APP_KEY = 'appdesk.currentApp';

/** The shown value of the editor's 应用 field. */
const appField = (drawer: Locator) =>
  drawer.locator('.ant-form-item').filter({ has: drawer.page().locator('label', { hasText: /^应用$/ }) });

async function newPlan(page: Page, name: string) {
  await page.getByRole('button', { name: '新建套餐' }).click();
  const drawer = page.getByRole('dialog', { name: '新建套餐' });
  await drawer.getByLabel('套餐名称').fill(name);
  await drawer.getByLabel('售价（元）').fill('12');
  return drawer;
}

async function plansOf(app: string, token: string) {
  const page = await api('/api/plan/fetch/page', { app, size: 100 }, token);
  return (page.data?.list ?? []).map((p) => p.name);
}

test('a plan made under an app belongs to it, the list names the app, and another app can be chosen', async ({
  page,
}) => {
  await ensureSiteReady();
  const token = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const suffix = Date.now().toString(36);
  const code = `p${suffix}`;
  const name = `格言${suffix.slice(-5)}`;
  const made = await api('/api/apps/make', { code, name }, token);
  expect([made.code, made.message]).toEqual([200, made.message]);
  const other = `截屏季卡${suffix.slice(-4)}`;
  expect((await api('/api/plan/make', { app: DEFAULT_APP, name: other, price: 3000 }, token)).code).toBe(200);

  await signInAdmin(page);
  // The header's switcher's choice, kept in the browser.
  await page.evaluate(([key, app]) => localStorage.setItem(key, app), [CURRENT_APP_KEY, code]);
  await page.goto('/admin/admin/plan');
  const inApp = `名言月卡${suffix.slice(-4)}`;
  let drawer = await newPlan(page, inApp);
  await expect(appField(drawer)).toContainText(name);
  await expectNotice(page, '会员套餐已创建', () => drawer.getByRole('button', { name: '保存' }).click());
  expect(await plansOf(code, token)).toContain(inApp);
  expect(await plansOf(DEFAULT_APP, token)).not.toContain(inApp);
  const row = page.locator('.ant-table-row', { hasText: inApp });
  await expect(await cellOf(row, '应用')).toHaveText(name);
  // The list follows the header's app: the default app's plan is not among this app's.
  await expect(page.locator('.ant-table-row', { hasText: other })).toHaveCount(0);

  // 全部应用: a new plan starts in the default app; the operator picks the other one by its name.
  await page.evaluate((key) => localStorage.removeItem(key), CURRENT_APP_KEY);
  await page.reload();
  await expect(await cellOf(page.locator('.ant-table-row', { hasText: other }), '应用')).toHaveText(DEFAULT_APP_NAME);
  const chosen = `名言年卡${suffix.slice(-4)}`;
  drawer = await newPlan(page, chosen);
  await expect(appField(drawer)).toContainText(DEFAULT_APP_NAME);
  await appField(drawer).locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).click();
  await expect(appField(drawer)).toContainText(name);
  await expectNotice(page, '会员套餐已创建', () => drawer.getByRole('button', { name: '保存' }).click());
  expect(await plansOf(code, token)).toContain(chosen);
  const chosenRow = page.locator('.ant-table-row', { hasText: chosen });
  await expect(await cellOf(chosenRow, '应用')).toHaveText(name);
  // No cell anywhere on the page shows the code itself.
  await expect(page.locator('.ant-table-tbody')).not.toContainText(code);
});
