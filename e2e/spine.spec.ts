import path from 'node:path';
import { expect, test } from '@playwright/test';
import { admin, api, freshPhone, sha256, shoot, signIn } from './support';

/**
 * The spine end to end, in order on one fresh server: first run, setup, sign-in, the admin
 * shell, site configuration, password change and sign-out; then the access rules.
 */
test.describe.configure({ mode: 'serial' });

test('a fresh site sends visitors to setup, which creates the admin; the home page shows the title', async ({
  page,
}) => {
  const pageviews: string[] = [];
  await page.exposeFunction('recordPageview', (href: string) => pageviews.push(href));
  await page.addInitScript(() => {
    (window as unknown as { ga: (...args: unknown[]) => void }).ga = (_send, _type, href) =>
      (window as unknown as { recordPageview: (h: unknown) => void }).recordPageview(href);
  });
  const fetched = await api('/api/allocation/fetch');
  // The suite's server starts on an empty data folder, and this spec runs first.
  expect((fetched.data?.allocation as { isInit?: boolean } | undefined)?.isInit).toBe(false);

  await page.goto('/');
  await expect(page).toHaveURL(/\/allocation$/);
  await expect(page.getByRole('heading', { name: '站点初始化' })).toBeVisible();
  await page.getByLabel('手机号').fill(admin.phone);
  await page.getByLabel('密码', { exact: true }).fill(admin.password);
  // The first administrator's password meets the operator rule, line by line (等保二级).
  await expect(page.locator('.password-rule li[data-state="met"]')).toHaveCount(3);
  await shoot(page, 'allocation-password-rule');
  await page.getByLabel('确认密码').fill('Mismatch123');
  await page.getByLabel('站点标题').fill('滚动截屏');
  await page.getByLabel('标语').fill('长截图，一键完成');
  await page.getByRole('button', { name: '完成初始化' }).click();
  await expect(page.getByText('两次输入的密码不一致')).toBeVisible();
  await page.getByLabel('确认密码').fill(admin.password);
  await page.getByRole('button', { name: '完成初始化' }).click();
  await expect(page).toHaveURL(/\/user\/login$/);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: '滚动截屏' })).toBeVisible();
  await expect(page.getByText('长截图，一键完成')).toBeVisible();
  expect(pageviews).toContain('/allocation');
  expect(pageviews).toContain('/');

  // The setup runs once: a second init answers 409 and the form says the site is set up.
  const again = await api('/api/allocation/init', {
    phone: '13900000000',
    password: sha256('Other12345'),
    title: 'x',
    slogen: '',
  });
  expect(again.code).toBe(409);
  await page.goto('/allocation');
  await expect(page.getByText('站点已经初始化')).toBeVisible();
});

test('the admin signs in, configures the site, changes the password and signs out', async ({ page }) => {
  // The longest walk of the suite (about 20 s alone); CI runs it beside a second browser and cluster.
  test.setTimeout(120_000);
  await signIn(page, admin.phone, admin.password);
  await expect(page).toHaveURL(/\/admin\/admin\/dashboard$/);
  await expect(page.getByRole('button', { name: '退出登录' })).toBeVisible();

  // Collapsed by default; the menu groups every admin page, with the open page's group open.
  await page.getByRole('button', { name: '展开菜单' }).click();
  for (const group of ['概览', '用户与消息', '版本与配置', '商业化', '内容与素材', '系统']) {
    await expect(page.getByRole('menuitem', { name: group })).toBeVisible();
  }
  await expect(page.getByRole('menuitem', { name: '数据统计' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '版本管理' })).toBeHidden();
  await page.getByRole('menuitem', { name: '版本与配置' }).click();
  await page.getByRole('menuitem', { name: '版本管理' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/version$/);
  // The expanded menu and its open groups are remembered across a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: '收起菜单' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '键值配置' })).toBeVisible();
  await page.getByRole('menuitem', { name: '系统' }).click();
  await page.getByRole('menuitem', { name: '站点配置' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/allocation$/);

  await page.getByLabel('站点标题').fill('滚动截屏 Pro');
  await expect(page.getByText('有未保存的修改')).toBeVisible();
  await page.getByLabel('ICP 备案号').fill('京ICP备12345678号-1');
  await page.getByLabel('Android 下载地址').fill('ftp://example.com/app.apk');
  await page.getByRole('button', { name: '保存站点配置' }).click();
  // The browser refuses what the server would, in its words, before sending.
  await expect(page.getByText('下载地址应以 http:// 或 https:// 开头')).toBeVisible();
  await page.getByLabel('Android 下载地址').fill('https://example.com/app.apk');
  await page.getByLabel('用户协议').fill('# 用户协议\n\n请遵守**法律**。');
  await page.getByRole('button', { name: '保存站点配置' }).click();
  await expect(page.getByText('站点配置已保存').first()).toBeVisible();
  await expect(page.getByText('有未保存的修改')).toBeHidden();

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: '上传 Logo' }).click();
  await (await chooser).setFiles(path.join(import.meta.dirname, 'fixtures', 'logo.png'));
  await expect(page.getByRole('progressbar').first()).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByRole('img', { name: /当前.*Logo/ })).toBeVisible();

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: '滚动截屏 Pro' })).toBeVisible();
  const logo = page.getByRole('img', { name: '滚动截屏 Pro 的 Logo' });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
  // 备案号 in the footer, the download button with its QR code, the agreement page.
  await expect(page.getByRole('link', { name: '京ICP备12345678号-1' })).toHaveAttribute(
    'href',
    'https://beian.miit.gov.cn/',
  );
  await expect(page.getByRole('link', { name: 'Android 下载' })).toHaveAttribute('href', 'https://example.com/app.apk');
  const qr = page.getByRole('img', { name: 'Android 下载二维码' });
  await qr.scrollIntoViewIfNeeded();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await shoot(page, 'home');
  await page.getByRole('link', { name: '用户协议' }).click();
  await expect(page.getByRole('heading', { name: '用户协议' }).first()).toBeVisible();
  await expect(page.locator('strong', { hasText: '法律' })).toBeVisible();

  await page.goto('/admin/admin/dashboard');
  const oldToken = await page.evaluate(() => localStorage.getItem('token'));
  const otherSession = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  await page.getByRole('button', { name: '修改密码' }).click();
  await page.getByLabel('原密码').fill(admin.password);
  await page.getByLabel('新密码', { exact: true }).fill('Changed12345');
  await page.getByLabel('确认新密码').fill('Changed12345');
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByText(/密码已修改/).first()).toBeVisible();
  // Other sessions die with the old password; this one lives on.
  expect((await api('/api/users/fetch/info', {}, otherSession)).code).toBe(401);
  expect((await api('/api/users/fetch/info', {}, oldToken ?? '')).code).toBe(200);

  await page.context().addCookies([{ name: 'SESSION', value: 'abc', domain: '127.0.0.1', path: '/' }]);
  await page.getByRole('button', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
  expect(await page.evaluate(() => [localStorage.getItem('user'), localStorage.getItem('token')])).toEqual([
    null,
    null,
  ]);
  expect((await page.context().cookies()).find((c) => c.name === 'SESSION')).toBeUndefined();
  expect((await api('/api/users/fetch/info', {}, oldToken ?? '')).code).toBe(401);

  await signIn(page, admin.phone, 'Changed12345');
  await expect(page).toHaveURL(/\/admin\/admin\/dashboard$/);
  // Put the password back so other specs can sign in with the documented one.
  const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
  const restored = await api(
    '/api/users/update/password',
    { old: sha256('Changed12345'), refresh: sha256(admin.password), plainPassword: admin.password },
    token,
  );
  expect(restored.code).toBe(200);
});

test('access rules: no stored user goes to login, a non-admin to 403, a 401 clears storage', async ({ page }) => {
  await page.goto('/admin/admin/users');
  await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fadmin%2Fadmin%2Fusers$/);
  await expect(page.getByText('登录已失效，请重新登录')).toBeHidden();

  const phone = freshPhone('137');
  const registered = await api('/api/users/register', {
    phone,
    password: sha256('User12345'),
    app: 'tailor',
    channel: 'xiaomi',
  });
  expect(registered.code).toBe(200);
  await signIn(page, phone, 'User12345');
  await page.goto('/admin/admin/dashboard');
  await expect(page).toHaveURL(/\/exception\/403$/);
  await expect(page.getByText('无权访问')).toBeVisible();

  // A stored admin whose token the server no longer knows: the shell's first call answers 401.
  await page.evaluate(() => {
    localStorage.setItem('user', JSON.stringify({ name: '管理员', isAdmin: true }));
    localStorage.setItem('token', 'revoked-or-forged-token');
  });
  await page.goto('/admin/admin/allocation?tab=site');
  // The login page says why, and signing in returns to the page with its query.
  await expect(page).toHaveURL(/\/user\/login\?expired=1&redirect=%2Fadmin%2Fadmin%2Fallocation%3Ftab%3Dsite$/);
  await expect(page.getByText('登录已失效，请重新登录')).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem('user'), localStorage.getItem('token')])).toEqual([
    null,
    null,
  ]);
  await page.getByLabel('手机号').fill(admin.phone);
  await page.getByLabel('密码').fill(admin.password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/allocation\?tab=site$/);

  // The session is dropped away from the console: a call of its page still loading would answer
  // 401 and send that page to sign in, aborting the navigation below.
  await page.goto('/exception/404');
  await expect(page.getByText('404 页面不存在')).toBeVisible();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/admin/admin/nothing-here');
  await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fadmin%2Fadmin%2Fnothing-here$/);
});

test('the email link page reads its token and shows the outcome', async ({ page }) => {
  await page.goto('/email/validate');
  await expect(page.getByText('验证链接不完整')).toBeVisible();
  await page.goto('/email/validate?token=abcdefghijklmnopqrstuvwxyz0123');
  await expect(page.getByText('邮箱验证失败')).toBeVisible();
});
