import { expect, type Page, test } from '@playwright/test';
import { admin, api, ensureSiteReady, freshPhone, noticeShown, sha256, shoot, signInAdmin } from './support';

/**
 * The console's requests and notices (issue 27): the 站点配置 form saves through the per-setting
 * calls, error notices close, an HTTP failure without JSON is described in Chinese, the sign-in page
 * says why the operator is back, and its notices end when the console opens.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const adminToken = async () =>
  (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data?.token ?? '';

/** Keeps the title and description of every notice the page shows, however briefly (window.seenNotices). */
async function recordNotices(page: Page) {
  await page.evaluate(() => {
    const seen: string[][] = [];
    (window as unknown as { seenNotices: string[][] }).seenNotices = seen;
    new MutationObserver(() => {
      for (const notice of document.querySelectorAll<HTMLElement>('.ant-notification-notice')) {
        if (notice.dataset.seen) continue;
        const title = notice.querySelector('.ant-notification-notice-title')?.textContent ?? '';
        if (!title) continue;
        notice.dataset.seen = '1';
        seen.push([title, notice.querySelector('.ant-notification-notice-description')?.textContent ?? '']);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}
const seenNotices = (page: Page) => page.evaluate(() => (window as unknown as { seenNotices: string[][] }).seenNotices);

/** The allocation calls the page makes, in order, with what each sent. */
function recordAllocationCalls(page: Page) {
  const seen: { path: string; body: unknown }[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/api/allocation/')) return;
    seen.push({ path, body: request.postDataJSON() });
  });
  return seen;
}

test('站点配置 saves title, QQ, slogan and about each through its own call, reloading after each', async ({ page }) => {
  await ensureSiteReady();
  const token = await adminToken();
  const original = (await api('/api/allocation/fetch/settings', {}, token)).data?.settings;
  expect(original).toBeDefined();
  if (!original) return;
  try {
    await signInAdmin(page);
    await page.goto('/admin/admin/allocation');
    await expect(page.getByLabel('站点标题')).toHaveValue(original.title);
    const calls = recordAllocationCalls(page);
    await recordNotices(page);

    const stamp = String(Date.now()).slice(-6);
    await page.getByLabel('关于我们').fill(`关于我们 ${stamp}`);
    await page.getByLabel('客服 QQ').fill(`88${stamp}`);
    await page.getByLabel('标语').fill(`标语 ${stamp}`);
    await page.getByLabel('站点标题').fill(`站点 ${stamp}`);
    await page.getByRole('button', { name: '保存站点配置' }).click();
    // Saved once the form's settings are read again.
    await expect.poll(() => calls.some((c) => c.path === '/api/allocation/fetch/settings')).toBe(true);
    await expect(page.getByText('有未保存的修改')).toBeHidden();

    // Each changed setting through its call, in the API's order, each followed by the reload.
    expect(calls.filter((c) => c.path !== '/api/allocation/fetch/settings')).toEqual([
      { path: '/api/allocation/update/title', body: { title: `站点 ${stamp}` } },
      { path: '/api/allocation/fetch', body: {} },
      { path: '/api/allocation/update/qq/account', body: { qq: `88${stamp}` } },
      { path: '/api/allocation/fetch', body: {} },
      { path: '/api/allocation/update/slogen', body: { slogen: `标语 ${stamp}` } },
      { path: '/api/allocation/fetch', body: {} },
      { path: '/api/allocation/update/about', body: { about: `关于我们 ${stamp}` } },
      { path: '/api/allocation/fetch', body: {} },
    ]);
    // Each answer's message is its notice's title and description.
    await expect
      .poll(() => seenNotices(page))
      .toEqual([
        ['站点标题已更新', '站点标题已更新'],
        ['客服 QQ 已更新', '客服 QQ 已更新'],
        ['标语已更新', '标语已更新'],
        ['关于我们已更新', '关于我们已更新'],
      ]);
    await shoot(page, 'allocation-saved');

    // One setting changed: one call; a setting without a call of its own goes through the combined one.
    calls.length = 0;
    await page.getByLabel('标语').fill(`标语二 ${stamp}`);
    await page.getByLabel('ICP 备案号').fill(`京ICP备${stamp}号-1`);
    const combined = noticeShown(page, '站点配置已保存');
    await page.getByRole('button', { name: '保存站点配置' }).click();
    await combined;
    expect(calls.filter((c) => c.path.startsWith('/api/allocation/update'))).toEqual([
      { path: '/api/allocation/update/slogen', body: { slogen: `标语二 ${stamp}` } },
      { path: '/api/allocation/update', body: { icp: `京ICP备${stamp}号-1` } },
    ]);
    const saved = (await api('/api/allocation/fetch/settings', {}, token)).data?.settings;
    expect(saved).toMatchObject({
      title: `站点 ${stamp}`,
      qq: `88${stamp}`,
      slogen: `标语二 ${stamp}`,
      about: `关于我们 ${stamp}`,
      icp: `京ICP备${stamp}号-1`,
    });
  } finally {
    // The other specs find the site as it was.
    expect((await api('/api/allocation/update', original, await adminToken())).code).toBe(200);
  }
});

test('an HTTP failure without JSON says what its status means in Chinese, and the notice closes', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  // What a proxy answers when the server behind it is down: an HTML 502.
  await page.route('**/api/users/fetch/page', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<html><h1>502 Bad Gateway</h1></html>' }),
  );
  await page.goto('/admin/admin/users');
  const notice = page.locator('.ant-notification-notice-error');
  await expect(notice.first()).toBeVisible();
  await expect(notice.first().locator('.ant-notification-notice-description')).toHaveText(
    '网关错误：服务器没有正确响应，请稍后再试',
  );
  await expect(page.getByText('返回内容不是有效的 JSON')).toHaveCount(0);
  // Titled with the status in words; the call's path is for the browser console, not the operator.
  await expect(notice.first().locator('.ant-notification-notice-title')).toHaveText('请求错误（状态码 502）');
  await expect(notice.first()).not.toContainText('/api/');
  await shoot(page, 'http-failure-notice');
  // A page's failed read closes with the console's notices (1.5 s), not when someone closes it.
  await page.mouse.move(300, 600);
  await expect(notice).toHaveCount(0, { timeout: 5_000 });
});

test('after a 403 the sign-in page says why the operator is back, with the server’s words', async ({ page }) => {
  await ensureSiteReady();
  const phone = freshPhone('136');
  const registered = await api('/api/users/register', {
    phone,
    password: sha256('User12345'),
    app: 'tailor',
    channel: 'xiaomi',
  });
  expect(registered.code).toBe(200);
  const token = (await api('/api/users/login', { phone, password: sha256('User12345') })).data?.token ?? '';
  expect(token).not.toBe('');
  // A browser that still holds an admin's record for an account the server no longer takes as one.
  await page.goto('/user/login');
  await page.evaluate((held) => {
    localStorage.setItem('user', JSON.stringify({ name: '前管理员', isAdmin: true }));
    localStorage.setItem('token', held);
  }, token);
  await page.goto('/admin/admin/dashboard');
  await expect(page).toHaveURL(/\/user\/login\?reason=403&redirect=%2Fadmin%2Fadmin%2Fdashboard$/);
  await expect(page.getByText('没有权限继续使用管理后台，已退出登录')).toBeVisible();
  await expect(page.getByText('服务器说明：需要管理员权限。如有疑问请联系其他管理员。')).toBeVisible();
  await shoot(page, 'login-after-403');
});

test('the sign-in page’s notices end when the console opens; the console says 登录成功', async ({ page }) => {
  await ensureSiteReady();
  await page.goto('/user/login');
  await page.getByLabel('手机号').fill(admin.phone);
  await page.getByLabel('密码').fill('NotThePassword1');
  await page.getByRole('button', { name: '登录' }).click();
  const refused = page.locator('.ant-notification-notice', { hasText: '手机号或密码错误' });
  await expect(refused).toBeVisible();
  await shoot(page, 'login-refused');
  const welcome = noticeShown(page, '登录成功');
  // Signing in on the same page (no reload, which would clear the notices anyway).
  await page.getByLabel('密码').fill(admin.password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\//);
  await welcome;
  // At once, not 4.5 s after the refusal was shown.
  await expect(refused).toHaveCount(0, { timeout: 1_000 });
});
