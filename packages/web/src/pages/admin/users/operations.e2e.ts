import { readFileSync } from 'node:fs';
import { admin, api, ensureSiteReady, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';

/**
 * The operator's workspace on users and the ledger: a timed block that ends by itself, segment
 * filters, the ledger by phone with links to the user, and batch actions on selected rows.
 */
test.describe.configure({ mode: 'serial' });

const password = sha256('User12345');
/** Phones sharing a random 7-digit middle, so one search finds exactly this test's users. */
const middle = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
let serial = 0;
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;

async function register(channel: 'xiaomi' | 'kuan' = 'xiaomi') {
  serial += 1;
  const phone = `16${serial}${middle}${serial}`.slice(0, 11).padEnd(11, '0');
  const answer = await api('/api/users/register', { phone, password, app: 'tailor', channel });
  expect(answer.code).toBe(200);
  const id = (answer.data?.user as { id: number } | undefined)?.id as number;
  return { phone, id, token: answer.data?.token as string };
}

const adminToken = async () =>
  (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data?.token as string;

async function openUser(page: Page, id: number) {
  await page.goto(`/admin/admin/users?detail=${id}`);
  const drawer = page.getByRole('dialog', { name: '用户详情' });
  await expect(drawer).toBeVisible();
  return drawer;
}

test('a user blocked for a duration is refused, then signs in again after it without anyone acting', async ({
  page,
}) => {
  await ensureSiteReady();
  const user = await register();
  await signInAdmin(page);
  const drawer = await openUser(page, user.id);
  await drawer.getByRole('button', { name: '更多操作' }).click();
  await page.getByRole('menuitem', { name: '封禁', exact: true }).click();
  const ask = page.getByRole('dialog', { name: /封禁用户/ });
  // The reason is required before anything is sent.
  await ask.getByRole('button', { name: '封禁', exact: true }).click();
  await expect(ask.getByText('原因不能为空')).toBeVisible();
  await ask.getByText('1 天').click();
  await ask.getByLabel('原因').fill('e2e 刷屏');
  await shoot(page, 'users-block-reason');
  await ask.getByRole('button', { name: '封禁', exact: true }).click();
  await expect(ask).toBeHidden();
  await expect(drawer.getByText(/^封禁至 \d{4}\.\d{2}\.\d{2} \d{2}:\d{2}$/)).toBeVisible();

  expect((await api('/api/users/fetch/info', {}, user.token)).code).toBe(401);
  const refused = await api('/api/users/login', { phone: user.phone, password });
  expect(refused.code).toBe(403);
  expect(refused.message).toMatch(/^账号已被封禁至 .+，请联系客服$/);

  // The reason is in the operation log.
  const token = await adminToken();
  const log = await api('/api/audit/fetch/page', { action: 'users.block', size: 20 }, token);
  const rows = (log.data?.list ?? []) as { targetId: string | null; after: unknown }[];
  expect(JSON.stringify(rows.find((r) => r.targetId === String(user.id))?.after)).toContain('e2e 刷屏');

  // A short block, through the API: refused now, signed in once it has passed.
  const until = new Date(Date.now() + 3000).toISOString();
  expect((await api('/api/users/block', { id: user.id, reason: 'e2e 短时封禁', until }, token)).code).toBe(200);
  expect((await api('/api/users/login', { phone: user.phone, password })).code).toBe(403);
  await expect
    .poll(async () => (await api('/api/users/login', { phone: user.phone, password })).code, {
      intervals: [1000],
      timeout: 15_000,
    })
    .toBe(200);
  await page.reload();
  await expect(drawer.getByText('正常', { exact: true })).toBeVisible();
});

test('one- and two-character searches find 艳 and 董艳 inside a nickname', async ({ page }) => {
  await ensureSiteReady();
  const user = await register();
  // A nickname no earlier run has used, with 董艳 inside it: a search must match within the text.
  const nickname = `老董艳${middle.slice(-3)}`;
  expect((await api('/api/users/update/info', { nickname }, user.token)).code).toBe(200);
  await signInAdmin(page);
  await page.goto('/admin/admin/users');
  const row = page.locator('tr.ant-table-row', { hasText: masked(user.phone) });
  const search = page.getByRole('textbox', { name: '搜索' });
  for (const text of ['艳', '董艳']) {
    await search.fill(text);
    await search.press('Enter');
    await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text)}`));
    await expect(row).toContainText(nickname);
  }
  // Not a loose match: the characters in another order find nobody of this test.
  await search.fill('艳董');
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent('艳董')}`));
  await expect(page.locator('.ant-table-tbody')).not.toContainText(nickname);
});

test('segment filters find the right users and stay in the URL', async ({ page }) => {
  await ensureSiteReady();
  const xiaomi = await register('xiaomi');
  const kuan = await register('kuan');
  const token = await adminToken();
  expect((await api('/api/vip/update', { id: kuan.id, app: 'tailor', days: 30, reason: 'e2e 会员' }, token)).code).toBe(
    200,
  );
  await signInAdmin(page);
  await page.goto(`/admin/admin/users?search=${middle}`);
  const rowOf = (phone: string) => page.locator('tr.ant-table-row', { hasText: masked(phone) });
  await expect(rowOf(xiaomi.phone)).toBeVisible();
  await expect(rowOf(kuan.phone)).toBeVisible();

  await page.getByRole('combobox', { name: '渠道' }).click();
  await page.getByRole('combobox', { name: '渠道' }).fill('酷安');
  await page.getByTitle('酷安', { exact: true }).click();
  await expect(page).toHaveURL(/channel=kuan/);
  await expect(rowOf(kuan.phone)).toBeVisible();
  await expect(rowOf(xiaomi.phone)).toHaveCount(0);
  await shoot(page, 'users-segments');

  // VIP: the kuan user has it, so "从未开通" with kuan finds nobody; the list says why and offers 清空筛选.
  await page.getByRole('combobox', { name: '会员' }).click();
  await page.getByTitle('从未开通', { exact: true }).click();
  await expect(page).toHaveURL(/vip=never/);
  await expect(page.getByText('没有符合筛选条件的记录')).toBeVisible();
  await page.reload();
  await expect(page.getByText('没有符合筛选条件的记录')).toBeVisible();

  // Sign-up range in the future finds nobody; today finds both.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  await page.goto(`/admin/admin/users?search=${middle}&from=${encodeURIComponent(tomorrow)}`);
  await expect(page.getByText('没有符合筛选条件的记录')).toBeVisible();
  await page.goto(`/admin/admin/users?search=${middle}&vip=active`);
  await expect(rowOf(kuan.phone)).toBeVisible();
  await expect(rowOf(xiaomi.phone)).toHaveCount(0);
});

test('the ledger by phone names the user and opens them in the users page', async ({ page }) => {
  await ensureSiteReady();
  const user = await register();
  const token = await adminToken();
  const reason = `e2e 流水 ${Date.now()}`;
  expect((await api('/api/users/update/coins', { id: user.id, delta: 66, reason }, token)).code).toBe(200);
  await signInAdmin(page);
  await page.goto('/admin/admin/coin');
  await page.getByPlaceholder('完整的 11 位手机号').fill(user.phone);
  await page.getByPlaceholder('完整的 11 位手机号').press('Enter');
  await expect(page).toHaveURL(new RegExp(`phone=${user.phone}`));
  const row = page.locator('tr.ant-table-row', { hasText: reason });
  await expect(row).toContainText(masked(user.phone));
  await expect(row).toContainText(`ID ${user.id}`);
  // Only this user's rows (a sign-up reward row too when another spec has set signup_coins).
  await expect(page.locator('tr.ant-table-row').filter({ hasNotText: masked(user.phone) })).toHaveCount(0);
  await shoot(page, 'coin-by-phone');
  // The link opens the user in the users page (a client-side switch of pages inside the console).
  await row.getByRole('link', { name: `查看用户 ${masked(user.phone)}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/admin/users\\?detail=${user.id}`));
  const drawer = page.getByRole('dialog', { name: '用户详情' });
  await expect(drawer).toContainText(masked(user.phone));
  await expect(drawer).toContainText(reason);
});

test('batch block, unblock, message and export the selected users', async ({ page }) => {
  test.setTimeout(90_000);
  await ensureSiteReady();
  const a = await register();
  const b = await register();
  await signInAdmin(page);
  await page.goto(`/admin/admin/users?search=${middle}`);
  const rowA = page.locator('tr.ant-table-row', { hasText: masked(a.phone) });
  const rowB = page.locator('tr.ant-table-row', { hasText: masked(b.phone) });
  await expect(rowA).toBeVisible();
  // Named in Chinese for a screen reader (antd's own names are English).
  await expect(page.getByRole('checkbox', { name: '全选本页' })).toBeVisible();
  await rowA.getByRole('checkbox', { name: '选择此行' }).check();
  await rowB.getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: '批量操作' });
  await expect(bar).toContainText('已选择 2 个用户');
  await shoot(page, 'users-batch');

  await bar.getByRole('button', { name: '批量封禁' }).click();
  const ask = page.getByRole('dialog', { name: '批量封禁 2 个用户' });
  await ask.getByText('永久').click();
  await ask.getByLabel('原因').fill('e2e 批量注册');
  await ask.getByRole('button', { name: '封禁', exact: true }).click();
  await expect(ask).toBeHidden();
  await expect(rowA).toContainText('已封禁');
  await expect(rowB).toContainText('已封禁');
  await expect(bar).toBeHidden();
  for (const u of [a, b]) expect((await api('/api/users/fetch/info', {}, u.token)).code).toBe(401);

  await rowA.getByRole('checkbox').check();
  await rowB.getByRole('checkbox').check();
  await bar.getByRole('button', { name: '批量解封' }).click();
  const unask = page.getByRole('dialog', { name: '批量解封 2 个用户' });
  await unask.getByLabel('原因').fill('e2e 误封');
  await unask.getByRole('button', { name: '解封', exact: true }).click();
  await expect(unask).toBeHidden();
  await expect(rowA).toContainText('正常');
  await expect(rowB).toContainText('正常');

  const title = `e2e 批量消息 ${Date.now()}`;
  await rowA.getByRole('checkbox').check();
  await rowB.getByRole('checkbox').check();
  await bar.getByRole('button', { name: '发送消息' }).click();
  const compose = page.getByRole('dialog', { name: '给 2 个用户发送消息' });
  await compose.getByLabel('标题').fill(title);
  await compose.getByLabel('内容').fill('感谢支持，奖励已到账。');
  await compose.getByRole('button', { name: '发送' }).click();
  await expect(compose).toBeHidden();
  for (const u of [a, b]) {
    const login = await api('/api/users/login', { phone: u.phone, password });
    const inbox = await api('/api/message/fetch/page/unread', { page: 0, size: 50 }, login.data?.token as string);
    expect((inbox.list ?? []).some((m: { title: string }) => m.title === title)).toBe(true);
  }

  // Export the selected: an .xlsx of exactly those rows, phones masked.
  await rowA.getByRole('checkbox').check();
  const download = page.waitForEvent('download');
  await bar.getByRole('button', { name: '导出所选' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync(await file.path()) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  expect(sheet?.rowCount).toBe(2);
  expect(String(sheet?.getRow(2).getCell(2).value)).toBe(masked(a.phone));
});
