import { expect, type Page, test } from '@playwright/test';
import { shotsDir } from './shots';
import { admin, api, ensureSiteReady, freshPhone, sha256, signInAdmin } from './support';

async function adminToken() {
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  return login.data?.token as string;
}

/** A user with two VIP records, one with a long note. */
async function vipUser(token: string) {
  const registered = await api('/api/users/register', {
    phone: freshPhone('136'),
    password: sha256('User12345'),
    app: 'tailor',
    channel: 'huawei',
  });
  const id = (registered.data?.user as { id: number } | undefined)?.id as number;
  expect(
    (
      await api(
        '/api/vip/update',
        { id, app: 'tailor', days: 30, reason: '客服补偿：订单异常导致会员未到账，补发三十天' },
        token,
      )
    ).code,
  ).toBe(200);
  expect((await api('/api/vip/update', { id, app: 'tailor', days: -3, reason: '多补的天数收回' }, token)).code).toBe(
    200,
  );
  return id;
}

/** The header cell `name` of the page's list table. */
const head = (page: Page, name: string) =>
  page.locator('.list-table .ant-table-thead th', { hasText: new RegExp(`^${name}$`) }).first();

/** The 操作 column does not sit over the column before it (it may be past the edge, to scroll to). */
async function expectNotCovered(page: Page, neighbour: string) {
  await expect(head(page, '操作')).toBeVisible();
  const ops = await head(page, '操作').boundingBox();
  const before = await head(page, neighbour).boundingBox();
  expect(ops && before).toBeTruthy();
  if (!ops || !before) return;
  expect(ops.x, `操作 starts at ${ops.x}, ${neighbour} ends at ${before.x + before.width}`).toBeGreaterThanOrEqual(
    before.x + before.width - 1,
  );
}

test('the pinned 操作 column never covers its neighbours when the list is wider than its box', async ({ page }) => {
  await ensureSiteReady();
  const token = await adminToken();
  await vipUser(token);
  const made = await api(
    '/api/version/make',
    {
      platform: 'android',
      channel: 'xiaomi',
      versionName: '9.8.7',
      versionCode: 987,
      storeUrl: 'https://app.mi.com/details?id=com.appdesk.tailor&ref=console-layout-check',
    },
    token,
  );
  expect(made.code, JSON.stringify(made)).toBe(200);
  await signInAdmin(page);

  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto('/admin/admin/users');
  await expect(page.locator('.list-table .ant-table-row').first()).toBeVisible();
  await expectNotCovered(page, '最近活跃');
  await page.screenshot({ path: `${shotsDir}/list-users-1024.png` });

  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/admin/admin/version');
  await expect(page.locator('.list-table .ant-table-row').first()).toBeVisible();
  await expectNotCovered(page, '发布时间');
  await page.screenshot({ path: `${shotsDir}/list-version-1366.png` });
});

test('the user drawer’s 会员记录 fit the desktop drawer and scroll inside their own box on a phone', async ({
  page,
}) => {
  await ensureSiteReady();
  const id = await vipUser(await adminToken());
  await signInAdmin(page);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto(`/admin/admin/users?detail=${id}`);
    const drawer = page.getByRole('dialog', { name: '用户详情' });
    await expect(drawer.getByText('多补的天数收回')).toBeVisible();
    const records = drawer.getByRole('region', { name: '会员记录（可左右滚动）' });
    await records.scrollIntoViewIfNeeded();
    const sizes = await records.evaluate((box) => {
      const body = box.closest('.ant-drawer-body') as HTMLElement;
      const outer = body.getBoundingClientRect();
      const inner = box.getBoundingClientRect();
      return {
        hidden: box.scrollWidth - box.clientWidth,
        bodyScroll: body.scrollWidth - body.clientWidth,
        inside: inner.left >= outer.left && inner.right <= outer.right,
      };
    });
    expect(sizes.bodyScroll, `the drawer scrolls sideways at ${width}`).toBeLessThanOrEqual(0);
    expect(sizes.inside).toBe(true);
    // Nothing cut off in the desktop drawer; on a phone the rest is a sideways scroll of this box away.
    if (width === 1366) expect(sizes.hidden, 'columns cut off at 1366').toBeLessThanOrEqual(0);
    else await expect(records).toHaveAttribute('tabindex', '0');
    await page.screenshot({ path: `${shotsDir}/users-vip-drawer-${width}.png` });
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
