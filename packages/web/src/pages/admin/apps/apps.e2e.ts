import {
  admin,
  api,
  ensureSiteReady,
  expectNotice,
  freshPhone,
  sha256,
  shoot,
  signInAdmin,
} from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';

/** The header's app switcher (an antd select named 当前应用). */
const switcher = (page: Page) => page.locator('.admin-app-switcher');

async function switchTo(page: Page, name: string) {
  await switcher(page).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).first().click();
  await expect(switcher(page)).toContainText(name);
}

test('an operator registers 名言, works in it from the header, and the choice outlives a reload', async ({ page }) => {
  await ensureSiteReady();
  await signInAdmin(page);
  // The suite's server holds one site: another spec may have registered quote already.
  const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
  const known = await api('/api/apps/fetch/options', {}, token);
  const taken = (known.data?.list ?? []).some((a) => a.code === 'quote');
  const code = taken ? `quote${String(Date.now()).slice(-6)}` : 'quote';
  const name = taken ? `名言${code.slice(5)}` : '名言';

  await page.goto('/admin/admin/apps');
  await expect(page.locator('.ant-table-row', { hasText: '滚动截屏' })).toContainText('默认应用');
  await page.getByRole('button', { name: '登记应用' }).click();
  const drawer = page.getByRole('dialog', { name: '登记应用' });
  await drawer.getByLabel('应用代码').fill(code);
  await drawer.getByLabel('应用名称').fill(name);
  await drawer.getByLabel('iOS Bundle ID').fill(`com.appdesk.${code}`);
  await drawer.getByLabel('华为应用市场').check();
  await drawer.getByLabel('华为应用市场 链接').fill('https://appgallery.huawei.com/app/C100000001');
  await drawer.getByLabel('支付宝 AppID').fill('2021000000000002');
  await expect(drawer.getByText('登记应用后可以设置密钥。').first()).toBeVisible();
  await shoot(page, 'apps-editor-new');
  await expectNotice(page, '应用已登记', () => drawer.getByRole('button', { name: '保存' }).click());

  const row = page.locator('.ant-table-row', { hasText: code });
  await expect(row).toContainText(name);
  await expect(row).toContainText(`com.appdesk.${code}`);
  await expect(row).toContainText('1 个渠道');

  // The header offers it at once (the options were refreshed by the save).
  await switchTo(page, name);
  await shoot(page, 'apps-list');

  // Lists follow the switcher: the plans list asks for this app only, and it has none yet.
  const asked = page.waitForRequest(
    (r) => r.url().endsWith('/api/plan/fetch/page') && (r.postDataJSON() as { app?: string }).app === code,
  );
  await page.goto('/admin/admin/plan');
  await asked;
  await expect(page.getByText(`当前应用「${name}」`)).toBeVisible();
  await expect(page.locator('.ant-table-row')).toHaveCount(0);
  // A page's own 应用 filter gave way to the switcher.
  await expect(page.locator('.list-form').getByLabel('应用', { exact: true })).toHaveCount(0);

  // Kept across a reload.
  await page.reload();
  await expect(switcher(page)).toContainText(name);
  await expect(page.getByText(`当前应用「${name}」`)).toBeVisible();
  await shoot(page, 'apps-header-plan');

  // Another tab of the console opens in the same app, and follows a change made in this one.
  const other = await page.context().newPage();
  await other.goto('/admin/admin/dashboard');
  await expect(switcher(other)).toContainText(name);

  // 全部应用 asks without an app: the default app's plans (if any) come back.
  const all = page.waitForRequest(
    (r) => r.url().endsWith('/api/plan/fetch/page') && !('app' in (r.postDataJSON() as object)),
  );
  await page.getByRole('button', { name: '查看全部应用' }).click();
  await all;
  await expect(switcher(page)).toContainText('全部应用');
  await expect(switcher(other)).toContainText('全部应用');
  await other.close();

  // Editing: the code is read-only; a secret is set in a password field and shown only as set.
  await page.goto('/admin/admin/apps');
  await row.getByRole('button', { name: '编辑' }).click();
  const editor = page.getByRole('dialog', { name: `编辑应用：${name}` });
  await expect(editor.getByLabel('应用代码')).toBeDisabled();
  await expect(editor.getByLabel('应用代码')).toHaveValue(code);
  const wechat = editor.locator('.apps-secret', { hasText: '微信支付 APIv3 密钥' });
  await expect(wechat).toContainText('未设置');
  await wechat.getByRole('button', { name: '设置' }).click();
  const secretDialog = page.getByRole('dialog', { name: '设置微信支付 APIv3 密钥' });
  const secret = '0123456789abcdef0123456789abcdef';
  await expect(secretDialog.getByLabel('微信支付 APIv3 密钥')).toHaveAttribute('type', 'password');
  await secretDialog.getByLabel('微信支付 APIv3 密钥').fill(secret);
  await expectNotice(page, '密钥已保存', () => secretDialog.getByRole('button', { name: '保存' }).click());
  await expect(wechat).toContainText('已设置');
  await expect(editor).not.toContainText(secret);
  await shoot(page, 'apps-editor');
  // Never sent back to the browser.
  const answered = await api('/api/apps/fetch/page', { page: 0, size: 20, search: code }, token);
  expect(answered.data?.list[0]?.secrets.wechatApiV3Key).toMatchObject({ set: true, source: 'console' });
  expect(JSON.stringify(answered)).not.toContain(secret);
});

/**
 * The second app as its users meet it: an account registered in 名言 sees 名言's update, remote
 * config, plans, help and messages, and none of 滚动截屏's; 滚动截屏's users none of 名言's.
 */
test('a second app is independent: update check, remote config, plans, help and messages', async () => {
  await ensureSiteReady();
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const operator = login.data?.token as string;
  const ok = async <T>(answer: Promise<{ code: number; message: string; data?: T }>) => {
    const got = await answer;
    expect([got.code, got.message]).toEqual([200, got.message]);
    return got.data as T;
  };
  // Registered here unless the console walk above did it (the suite's server holds one site).
  const known = await ok(api('/api/apps/fetch/options', {}, operator));
  const suffix = String(Date.now()).slice(-6);
  const quote = known.list.find((a) => a.code === 'quote')?.code ?? `q${suffix}`;
  if (!known.list.some((a) => a.code === quote)) {
    await ok(
      api(
        '/api/apps/make',
        { code: quote, name: `名言${suffix}`, channels: [{ channel: 'huawei', storeLink: '' }] },
        operator,
      ),
    );
  }
  const mark = `独立${suffix}`;
  const versionNameOf = (app: string) => `${app === 'tailor' ? 7 : 8}.${suffix}`;
  // 名言 ships on Huawei; 滚动截屏's release goes to a channel no other spec publishes on, so the
  // releases other specs expect to be the newest stay so.
  const channelOf = (app: string) => (app === 'tailor' ? 'zhuoyi' : 'huawei');
  // A user signs up in 名言 and one in 滚动截屏.
  const tokens = new Map<string, string>();
  for (const app of ['tailor', quote]) {
    const phone = freshPhone('137');
    const registered = await ok(
      api('/api/users/register', { phone, password: sha256('Indep12345'), app, channel: 'huawei' }),
    );
    tokens.set(app, registered.token);
  }
  for (const app of ['tailor', quote]) {
    // Newer than any release another spec (or an earlier try) published: seconds since 1970.
    const versionCode = Math.floor(Date.now() / 1000) + (app === 'tailor' ? 0 : 1);
    await ok(
      api(
        '/api/version/make',
        {
          app,
          platform: 'android',
          channel: channelOf(app),
          versionName: versionNameOf(app),
          versionCode,
          storeUrl: `appmarket://details?id=com.example.${app}`,
          published: true,
        },
        operator,
      ),
    );
    await ok(
      api('/api/a11t/make', { app, key: `indep.k${suffix}`, type: 'string', value: `${app}-${mark}` }, operator),
    );
    await ok(
      api('/api/plan/make', { app, name: `${app}-${mark}`, price: 1200, durationDays: 30, onSale: true }, operator),
    );
    await ok(api('/api/help/make', { app, title: `${app}-${mark}`, published: true, content: '正文' }, operator));
    await ok(api('/api/message/make', { app, title: `${app}-${mark}`, content: '给全体用户' }, operator));
  }

  // Each app asks as itself.
  for (const app of ['tailor', quote]) {
    const other = app === 'tailor' ? quote : 'tailor';
    const token = tokens.get(app) as string;
    const device = {
      app,
      platform: 'android' as const,
      channel: channelOf(app),
      versionCode: 1,
      deviceId: `dev-${app}-${suffix}`,
    };
    const latest = await ok(api('/api/version/fetch/latest', device));
    expect(latest.version?.versionName).toBe(versionNameOf(app));
    const config = await ok(api('/api/a11t/fetch', device));
    expect(config.values?.[`indep.k${suffix}`]).toBe(`${app}-${mark}`);
    const plans = await ok(api('/api/plan/fetch/onsale', { app, platform: 'android' }));
    const planNames = JSON.stringify(plans);
    expect(planNames).toContain(`${app}-${mark}`);
    expect(planNames).not.toContain(`${other}-${mark}`);
    const help = JSON.stringify(await ok(api('/api/help/fetch/published', { app })));
    expect(help).toContain(`${app}-${mark}`);
    expect(help).not.toContain(`${other}-${mark}`);
    const inbox = JSON.stringify(await ok(api('/api/message/fetch/page/mine', { app, page: 0, size: 50 }, token)));
    expect(inbox).toContain(`${app}-${mark}`);
    expect(inbox).not.toContain(`${other}-${mark}`);
  }
});
