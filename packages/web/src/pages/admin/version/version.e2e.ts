import { screenshots } from '@appdesk/e2e/shots';
import {
  admin,
  api,
  confirmPop,
  ensureSiteReady,
  expectNotice,
  noticeShown,
  sha256,
  signInAdmin,
} from '@appdesk/e2e/support';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { makeApk } from '../../../../../server/test/packages';

/**
 * Releases end to end through the real UI: an APK uploaded with visible progress pre-fills the
 * form; 2.0.0 (200, minimum 150) published for 华为应用市场 answers the app's update check as the
 * issue says; a second release rolled out to 10 %, then 50 %, reaches about that share of 10,000
 * devices and keeps the first ones; copying to channels and the channel matrix.
 */
test.describe.configure({ mode: 'serial' });

type Latest = { updateType: number; version: { versionCode: number } | null };
const check = async (channel: string, versionCode: number, deviceId = 'e2e-device') =>
  (await api('/api/version/fetch/latest', { app: 'tailor', platform: 'android', channel, versionCode, deviceId }))
    .data as Latest;

async function offeredTo(devices: string[], versionCode: number) {
  const got: string[] = [];
  for (let i = 0; i < devices.length; i += 25) {
    const answers = await Promise.all(devices.slice(i, i + 25).map((d) => check('huawei', 250, d)));
    answers.forEach((a, n) => {
      if (a.version?.versionCode === versionCode) got.push(devices[i + n]);
    });
  }
  return got;
}

/** Moves the rollout slider to `percent` with the keyboard, as an operator can. */
async function setRollout(drawer: Locator, page: Page, percent: number) {
  const handle = drawer.getByRole('slider');
  await handle.focus();
  await page.keyboard.press('Home');
  for (let i = 1; i < percent; i += 1) await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', String(percent));
}

/**
 * Saves the editor and checks the server's answer first, so a refusal fails with its reason (a
 * 1.5 s notice alone said nothing when it was missed), then the notice and the drawer closing.
 */
async function saveRelease(page: Page, drawer: Locator) {
  const notice = noticeShown(page, '版本已创建');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/version/make'));
  await drawer.getByRole('button', { name: '保存' }).click();
  const answer = await (await saved).json();
  expect(answer, JSON.stringify(answer)).toMatchObject({ code: 200 });
  await notice;
  await expect(drawer).toBeHidden();
}

test('an operator publishes 2.0.0 for Huawei from an uploaded APK, and the app call answers as it should', async ({
  page,
}) => {
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/version');
  await page.getByRole('button', { name: '新建版本' }).click();
  const drawer = page.getByRole('dialog', { name: '新建版本' });

  const apk = Buffer.from(makeApk({ package: 'com.appdesk.tailor', versionCode: 200, versionName: '2.0.0' }, 600_000));
  await drawer
    .locator('input[type=file]')
    .setInputFiles({ name: 'tailor-2.0.0.apk', mimeType: 'application/vnd.android.package-archive', buffer: apk });
  const progress = drawer.getByRole('progressbar', { name: '安装包上传进度' });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await expect(drawer.getByText('包名 com.appdesk.tailor · 版本 2.0.0（200）')).toBeVisible();
  await expect(drawer.getByRole('img', { name: '应用图标' })).toBeVisible();
  await expect(drawer.getByLabel('版本名')).toHaveValue('2.0.0');
  await expect(drawer.getByLabel('版本号', { exact: true })).toHaveValue('200');
  await drawer.getByLabel('最低支持版本号').fill('150');
  await drawer.getByLabel('更新说明').fill('1. 长截图拼接更快\n2. 修复部分机型闪退');
  await drawer.getByRole('switch', { name: '立即发布' }).click();
  await screenshots(page, 'version-editor');
  await saveRelease(page, drawer);

  // Its own upload's row: specs running beside this one (ui-words) may add releases named 2.0.0 too.
  const row = page.locator('.ant-table-row', { hasText: 'tailor-2.0.0.apk' });
  await expect(row).toContainText('华为应用市场');
  await expect(row).toContainText('已发布');
  await expect(row).toContainText('appmarket://details?id=com.appdesk.tailor');
  await expect(row).toContainText('tailor-2.0.0.apk');

  expect(await check('huawei', 120)).toMatchObject({ updateType: 2, version: { versionCode: 200 } });
  expect(await check('huawei', 180)).toMatchObject({ updateType: 1, version: { versionCode: 200 } });
  expect(await check('huawei', 200)).toEqual({ updateType: 0, version: null });
  expect(await check('xiaomi', 120)).toEqual({ updateType: 0, version: null });
});

test('a 10 % rollout reaches about a tenth of 10,000 devices, and raising it to 50 % keeps them all', async ({
  page,
}) => {
  // 20,000 app calls through the API besides the UI steps.
  test.setTimeout(180_000);
  await signInAdmin(page);
  await page.goto('/admin/admin/version');
  await page.getByRole('button', { name: '新建版本' }).click();
  const drawer = page.getByRole('dialog', { name: '新建版本' });
  await drawer.getByLabel('版本名').fill('3.0.0');
  await drawer.getByLabel('版本号', { exact: true }).fill('300');
  await setRollout(drawer, page, 10);
  await drawer.getByRole('switch', { name: '立即发布' }).click();
  await saveRelease(page, drawer);
  const row = page.locator('.ant-table-row', { hasText: '3.0.0' });
  await expect(row.getByRole('progressbar', { name: '灰度比例' })).toHaveAttribute('aria-valuenow', '10');

  const devices = Array.from({ length: 10_000 }, (_, i) => `e2e-${i}-${(i * 104_729) % 1_000_003}`);
  const atTen = await offeredTo(devices, 300);
  expect(atTen.length).toBeGreaterThan(850);
  expect(atTen.length).toBeLessThan(1150);

  await row.getByRole('button', { name: '编辑' }).click();
  const editor = page.getByRole('dialog', { name: '编辑版本' });
  await expect(editor.getByLabel('版本名')).toHaveValue('3.0.0');
  await setRollout(editor, page, 50);
  await expectNotice(page, '版本已保存', () => editor.getByRole('button', { name: '保存' }).click());
  await expect(row.getByRole('progressbar', { name: '灰度比例' })).toHaveAttribute('aria-valuenow', '50');

  const atFifty = new Set(await offeredTo(devices, 300));
  expect(atFifty.size).toBeGreaterThan(4700);
  expect(atFifty.size).toBeLessThan(5300);
  expect(atTen.filter((d) => !atFifty.has(d))).toEqual([]);
  test.info().annotations.push({
    type: 'rollout',
    description: `10 %: ${atTen.length}; 50 %: ${atFifty.size}, all ${atTen.length} kept`,
  });
});

test('copy a release to other channels, pause it, and see what is live where', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/admin/admin/version');
  // Its own upload's row: specs running beside this one (ui-words) may add releases named 2.0.0 too.
  const row = page.locator('.ant-table-row', { hasText: 'tailor-2.0.0.apk' });
  // Past the first two, a row's actions are under 更多.
  await row.getByRole('button', { name: '更多' }).click();
  await page.getByRole('menuitem', { name: '复制到渠道' }).click();
  const modal = page.getByRole('dialog', { name: '复制到其他渠道' });
  await modal.getByLabel('小米应用商店').check();
  await modal.getByLabel('vivo 应用商店').check();
  await expectNotice(page, '已复制到 2 个渠道（草稿）', () => modal.getByRole('button', { name: '复制' }).click());
  const vivo = page.locator('.ant-table-row', { hasText: 'vivo 应用商店' }).filter({ hasText: 'tailor-2.0.0.apk' });
  await expect(vivo).toContainText('草稿');
  await expect(vivo).toContainText('审核中暂停提示');

  const three = page.locator('.ant-table-row', { hasText: '3.0.0' });
  await three.getByRole('button', { name: '暂停' }).click();
  await confirmPop(page, '暂停');
  await expect(three).toContainText('已暂停');
  expect(await check('huawei', 180)).toMatchObject({ updateType: 1, version: { versionCode: 200 } });
  await screenshots(page, 'version-list');

  await page.getByRole('tab', { name: '渠道矩阵' }).click();
  const huawei = page.locator('.ant-table-row', { hasText: '华为应用市场' });
  await expect(huawei).toContainText('已暂停');
  await expect(huawei).toContainText('已发布');
  await expect(page.locator('.ant-table-row', { hasText: '小米应用商店' })).toContainText('草稿');
  await screenshots(page, 'version-matrix');

  const token =
    (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data?.token ?? '';
  const stats = await api('/api/version/fetch/stats', { channel: 'huawei' }, token);
  expect(stats.data?.list.some((r) => r.versionName === '3.0.0' && r.checks > 0)).toBe(true);
  await page.getByRole('tab', { name: '版本统计' }).click();
  await expect(page.locator('.ant-table-row', { hasText: '3.0.0' }).first()).toBeVisible();
  await screenshots(page, 'version-stats');
});
