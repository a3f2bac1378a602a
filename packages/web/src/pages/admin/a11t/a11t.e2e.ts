import { screenshots } from '@appdesk/e2e/shots';
import { api, confirmPop, ensureSiteReady, expectNotice, signInAdmin } from '@appdesk/e2e/support';
import { expect, type Locator, type Page, test } from '@playwright/test';

/**
 * Remote config end to end: a value changed three times shows its history as diffs, rolls back to
 * the first in one click, and the app call returns it with a new tag while that tag then answers
 * "unchanged"; an override for Huawei at 20 % reaches about a fifth of 10,000 Huawei devices and
 * no other channel's.
 */
test.describe.configure({ mode: 'serial' });

type Fetched = { tag: string; unchanged?: true; values?: Record<string, unknown> };
const fetchConfig = async (channel: string, deviceId: string, tag?: string) =>
  (
    await api('/api/a11t/fetch', {
      app: 'tailor',
      platform: 'android',
      channel,
      versionCode: 200,
      deviceId,
      ...(tag ? { tag } : {}),
    })
  ).data as Fetched;

async function pick(page: Page, select: Locator, option: string) {
  await select.click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
}

async function editValue(page: Page, key: string, value: string) {
  await page.locator('.ant-table-row', { hasText: key }).getByRole('button', { name: '编辑' }).click();
  const drawer = page.getByRole('dialog', { name: '编辑键值' });
  await drawer.getByLabel('默认值').fill(value);
  await expectNotice(page, '已保存为新的修订', () => drawer.getByRole('button', { name: '保存' }).click());
  await expect(drawer).toBeHidden();
}

test('a value changed three times shows its diffs and rolls back to the first, with a new tag for the apps', async ({
  page,
}) => {
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/a11t');
  await page.getByRole('button', { name: '新建键值' }).click();
  const drawer = page.getByRole('dialog', { name: '新建键值' });
  await drawer.getByLabel('键名').fill('signup_coins');
  await pick(page, drawer.getByLabel('类型'), '数字');
  await drawer.getByLabel('默认值').fill('三十');
  await drawer.getByRole('button', { name: '保存' }).click();
  await expect(drawer.getByText('值“三十”不是有效的数字')).toBeVisible();
  await drawer.getByLabel('默认值').fill('30');
  await drawer.getByLabel('说明').fill('注册赠送金币');
  await expectNotice(page, '键值已创建', () => drawer.getByRole('button', { name: '保存' }).click());
  const row = page.locator('.ant-table-row', { hasText: 'signup_coins' });
  await expect(row).toContainText('#1');

  for (const value of ['40', '50', '60']) await editValue(page, 'signup_coins', value);
  await expect(row).toContainText('#4');
  const before = await fetchConfig('huawei', 'e2e-phone');
  expect(before.values?.signup_coins).toBe(60);

  await row.getByRole('button', { name: '历史' }).click();
  const history = page.getByRole('dialog', { name: '修改历史：signup_coins' });
  const newest = history.locator('.a11t-revision').first();
  await expect(newest).toContainText('修订 4');
  await expect(newest.getByRole('group', { name: '值的变化' })).toContainText('- 50');
  await expect(newest.getByRole('group', { name: '值的变化' })).toContainText('+ 60');
  await expect(history.locator('.a11t-revision')).toHaveCount(4);
  await screenshots(page, 'a11t-history');
  await history.locator('.a11t-revision', { hasText: '修订 1' }).getByRole('button', { name: '回滚到此修订' }).click();
  await expectNotice(page, '已回滚到修订 1（保存为新的修订）', () => confirmPop(page, '回滚'));
  await expect(history.locator('.a11t-revision').first()).toContainText('回滚到修订 1');
  await history.getByRole('button', { name: 'Close' }).or(history.locator('.ant-drawer-close')).first().click();
  await expect(row).toContainText('#5');

  const after = await fetchConfig('huawei', 'e2e-phone', before.tag);
  expect(after.values?.signup_coins).toBe(30);
  expect(after.tag).not.toBe(before.tag);
  expect(await fetchConfig('huawei', 'e2e-phone', after.tag)).toEqual({ tag: after.tag, unchanged: true });
});

test('an override for Huawei at 20 % reaches about a fifth of Huawei devices and no other channel', async ({
  page,
}) => {
  // 13,000 app calls through the API besides the UI steps.
  test.setTimeout(180_000);
  await signInAdmin(page);
  await page.goto('/admin/admin/a11t');
  await page.getByRole('button', { name: '新建键值' }).click();
  const drawer = page.getByRole('dialog', { name: '新建键值' });
  await drawer.getByLabel('键名').fill('feature.new_stitch');
  await drawer.getByLabel('说明').fill('新的拼接算法');
  await pick(page, drawer.getByLabel('类型'), '布尔');
  await pick(page, drawer.getByLabel('默认值'), 'false（关）');
  await drawer.getByRole('button', { name: '添加条件值' }).click();
  const override = drawer.getByRole('group', { name: '条件值 1' });
  await pick(page, override.getByLabel('条件 1 渠道'), '华为应用市场');
  await page.keyboard.press('Escape');
  await override.getByLabel('条件 1 设备比例').fill('20');
  await pick(page, override.getByLabel('条件 1 的值'), 'true（开）');
  await screenshots(page, 'a11t-editor');
  await expectNotice(page, '键值已创建', () => drawer.getByRole('button', { name: '保存' }).click());
  await expect(page.locator('.ant-table-row', { hasText: 'feature.new_stitch' })).toContainText('条件值 1 条');
  await screenshots(page, 'a11t-list');

  const share = async (channel: string, count: number) => {
    let on = 0;
    for (let i = 0; i < count; i += 25) {
      const ids = Array.from({ length: Math.min(25, count - i) }, (_, n) => `${channel}-device-${i + n}`);
      const answers = await Promise.all(ids.map((id) => fetchConfig(channel, id)));
      on += answers.filter((a) => a.values?.['feature.new_stitch'] === true).length;
    }
    return on;
  };
  const huawei = await share('huawei', 10_000);
  expect(huawei).toBeGreaterThan(1800);
  expect(huawei).toBeLessThan(2200);
  expect(await share('xiaomi', 2000)).toBe(0);
  expect(await share('oppo', 1000)).toBe(0);
  test
    .info()
    .annotations.push({ type: 'override', description: `huawei 20 %: ${huawei} of 10,000; xiaomi 0 of 2,000` });
});
