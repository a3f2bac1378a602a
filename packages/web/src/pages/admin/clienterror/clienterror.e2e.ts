import { api, confirmPop, ensureSiteReady, noticesClosed, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';

/** A tag without digits: runs of seven digits or more are scrubbed from reports. */
const letters = () => Math.random().toString(36).slice(2, 10).replace(/\d/g, 'q');

/** Counts the error reports the page sends from now on. */
function countReports(page: Page) {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/clienterror/report')) bodies.push(request.postData() ?? '');
  });
  return bodies;
}

test('the production console reports a thrown error and a rejection once each, listed under 前端错误', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/dashboard?search=13800138000');
  const reports = countReports(page);
  const tag = `e${letters()}`;
  await page.evaluate((tag) => {
    setTimeout(() => {
      throw new TypeError(`${tag} thrown for 13912345678`);
    });
    void Promise.reject(new Error(`${tag} rejected`));
  }, tag);
  await expect.poll(() => reports.length, { timeout: 10_000 }).toBe(2);
  // Nothing personal left the browser: no token header, no query string, no phone number.
  for (const body of reports) {
    expect(body).not.toContain('13912345678');
    expect(body).not.toContain('13800138000');
    expect(JSON.parse(body).path).toBe('/admin/admin/dashboard');
  }

  await page.goto(`/admin/admin/clienterror?search=${tag}`);
  const rows = page.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  const thrown = rows.filter({ hasText: `TypeError: ${tag} thrown for ‹已隐去›` });
  const rejected = rows.filter({ hasText: `Error: ${tag} rejected` });
  await expect(thrown).toContainText('未捕获的错误');
  await expect(rejected).toContainText('未处理的 Promise 拒绝');
  for (const row of [thrown, rejected]) {
    await expect(row).toContainText('/admin/admin/dashboard');
    await expect(row).toContainText('未处理');
    await expect(row.locator('td').nth(3)).toHaveText('1');
  }
  // A row opens to its report's stack, page and browser.
  await thrown.getByRole('button', { name: /展开/ }).click();
  await expect(page.locator('.clienterror-stack').first()).toContainText(`${tag} thrown`);
  await expect(page.locator('.clienterror-sample').first()).toContainText(/Chrom(e|ium) \d+/);
  await shoot(page, 'clienterror');

  await thrown.getByText('标记已处理').click();
  await confirmPop(page, '标记');
  await expect(thrown).toContainText('已处理');
  await noticesClosed(page);
  await page.goto('/admin/admin/audit?action=clienterror.resolve');
  await expect(page.locator('tr.ant-table-row').first()).toContainText('标记前端错误已处理');

  // The bell: the dashboard's to-dos with their counts (a pending feedback at least).
  const feedback = await api('/api/feedback/make', {
    app: 'tailor',
    content: '长截图拼接时会闪退',
    contact: 'QQ 10001',
    version: '2.3.1',
    channel: 'huawei',
    deviceModel: 'HUAWEI Mate 60',
    osVersion: 'HarmonyOS 4.0',
    deviceId: `e2e-${tag}`,
  });
  expect(feedback.code).toBe(200);
  await page.getByRole('button', { name: /^通知/ }).click();
  await expect(page.locator('.notice-panel')).toContainText('意见反馈待处理');
  await shoot(page, 'bell');
});

test('a page throwing in a loop sends no more than 60 reports a minute', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/dashboard');
  const reports = countReports(page);
  const tag = `loop${letters()}`;
  await page.evaluate((tag) => {
    for (let i = 0; i < 200; i += 1) {
      setTimeout(() => {
        throw new Error(`${tag} ${i}`);
      });
    }
  }, tag);
  await expect.poll(() => reports.length, { timeout: 10_000 }).toBe(60);
  // The rest wait for the minute to pass (or are dropped past the queue of 100): none leave meanwhile.
  await page.waitForTimeout(5_000);
  expect(reports.length).toBe(60);
});
