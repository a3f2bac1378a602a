import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { admin, api, ensureSiteReady, sha256, shoot, signInAdmin } from './support';

/**
 * Operator tools end to end: find an app user, adjust coins, block and unblock, toggle admin,
 * generate accounts (CSV download), and send a message the user reads through the API.
 * Works on a fresh server or after spine.spec.ts has set the site up.
 */
test.describe.configure({ mode: 'serial' });

const randomPhone = () => `15${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

test('an operator manages an app user, generates accounts and messages every user', async ({ page }) => {
  test.setTimeout(120_000);
  await ensureSiteReady();

  // An app user signs up from the app.
  const phone = randomPhone();
  const userPassword = sha256('User12345');
  const registered = await api('/api/users/register', {
    phone,
    password: userPassword,
    app: 'tailor',
    channel: 'huawei',
  });
  expect(registered.code).toBe(200);
  const userId = (registered.data?.user as { id: number } | undefined)?.id;
  expect(userId).toBeGreaterThan(0);
  const userToken = registered.data?.token as string;

  await signInAdmin(page);
  await page.goto('/admin/admin/users');

  // Found by part of the phone number; the filter goes into the URL.
  const part = phone.slice(3, 10);
  await page.getByPlaceholder('手机号、昵称或 ID').fill(part);
  await page.getByPlaceholder('手机号、昵称或 ID').press('Enter');
  await expect(page).toHaveURL(new RegExp(`search=${part}`));
  // Operators see phones masked; the whole number is an explicit, logged look.
  const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
  const row = page.locator('.ant-table-row', { hasText: masked });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('正常');

  // The filter survives a reload.
  await page.reload();
  await expect(page.getByPlaceholder('手机号、昵称或 ID')).toHaveValue(part);
  await expect(row).toHaveCount(1);

  // Detail drawer.
  await row.getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog', { name: '用户详情' });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText(masked);
  await expect(drawer).not.toContainText(phone);
  const revealed = page.waitForResponse('**/api/users/fetch/phone');
  await drawer.getByRole('button', { name: '查看完整手机号' }).click();
  await revealed;
  await expect(drawer).toContainText(phone);
  await shoot(page, 'users-drawer-phone');
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const looks = await api('/api/audit/fetch/page', { action: 'users.fetch.phone', size: 50 }, adminToken);
  const looked = (looks.data?.list ?? []) as { targetId: string | null }[];
  expect(looked.some((entry) => entry.targetId === String(userId))).toBe(true);
  await expect(drawer).toContainText('华为应用市场');
  await expect(drawer).toContainText('滚动截屏');

  // Adjust coins with a reason: the ledger row appears in the drawer.
  const reason = `e2e 补偿 ${Date.now()}`;
  const menu = async (item: string) => {
    await drawer.getByRole('button', { name: '更多操作' }).click();
    await page.getByRole('menuitem', { name: item, exact: true }).click();
  };
  await menu('调整金币');
  const coinsModal = page.getByRole('dialog', { name: /调整金币/ });
  await coinsModal.getByLabel('调整数量').fill('250');
  await coinsModal.getByLabel('原因').fill(reason);
  await coinsModal.getByRole('button', { name: '确认调整' }).click();
  await expect(coinsModal).toBeHidden();
  await expect(drawer).toContainText(reason);
  await expect(drawer).toContainText('+250');

  // Block (under 更多, with a reason and a duration): the user's token is refused at once.
  await menu('封禁');
  const ask = page.getByRole('dialog', { name: /封禁用户/ });
  await ask.getByText('永久').click();
  await ask.getByLabel('原因').fill('e2e 违规');
  await ask.getByRole('button', { name: '封禁', exact: true }).click();
  await expect(ask).toBeHidden();
  await expect(drawer).toContainText('已封禁');
  const refused = await api('/api/users/fetch/info', {}, userToken);
  expect(refused.code).toBe(401);
  await expect(row).toContainText('已封禁');

  // Unblock, with a reason.
  await menu('解除封禁');
  const unask = page.getByRole('dialog', { name: /解除封禁/ });
  await unask.getByLabel('原因').fill('e2e 申诉通过');
  await unask.getByRole('button', { name: '解封', exact: true }).click();
  await expect(unask).toBeHidden();
  await expect(row).toContainText('正常');

  // Admin on and off.
  await menu('设为管理员');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);
  await expect(row).toContainText('管理员');
  await menu('取消管理员');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '确定' }).click();
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);
  await expect(row).not.toContainText('管理员');

  // The adjustment is on 金币流水 too.
  await drawer.getByRole('button', { name: /查看.*全部金币流水/ }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/admin/coin\\?userId=${userId}`));
  // The URL changes before the ledger page has replaced the users page (its chunk loads in a transition).
  await expect(drawer).toBeHidden();
  await expect(page.locator('.ant-table-row', { hasText: reason })).toContainText('管理员调整');
  // Sorting by a column goes to the URL; the export downloads the whole filtered ledger.
  await page.getByRole('columnheader', { name: '变动', exact: true }).click();
  await expect(page).toHaveURL(/sort=delta/);
  await expect(page.locator('.ant-table-row', { hasText: reason })).toBeVisible();
  const xlsx = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await xlsx).suggestedFilename()).toMatch(/^金币流水-\d{4}-\d{2}-\d{2}\.xlsx$/);

  // Generate 20 accounts: a CSV downloads at once (header + 20 rows), passwords shown once.
  await page.goto('/admin/admin/users');
  await page.getByRole('button', { name: '生成账号' }).click();
  const generate = page.getByRole('dialog', { name: '批量生成账号' });
  await generate.getByLabel('数量').fill('20');
  const downloadPromise = page.waitForEvent('download');
  await generate.getByRole('button', { name: '生成' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^生成账号-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split(/\r?\n/);
  expect(lines).toHaveLength(21);
  expect(lines[0]).toBe('手机号,初始密码,ID');
  // Generated accounts live in the reserved 100 range, never a real person's number.
  expect(lines[1]).toMatch(/^100\d{8},[A-Za-z0-9]{10},\d+$/);
  const result = page.getByRole('dialog', { name: '已生成 20 个账号' });
  await expect(result).toContainText('初始密码只显示这一次');
  await result.getByRole('button', { name: '我已保存，关闭' }).click();
  await expect(result).toBeHidden();

  // A message to every user; the user signs in again (blocking ended the old session).
  const login = await api('/api/users/login', { phone, password: userPassword });
  expect(login.code).toBe(200);
  const token = login.data?.token as string;
  await api('/api/message/read/all', {}, token);
  const unread = () => api('/api/message/fetch/page/unread', { page: 0, size: 1024 }, token);
  expect((await unread()).total).toBe(0);

  const title = `系统维护通知 ${Date.now()}`;
  await page.goto('/admin/admin/message');
  await page.getByRole('button', { name: '发送消息' }).click();
  const compose = page.getByRole('dialog', { name: '发送消息' });
  await compose.getByLabel('标题').fill(title);
  await compose.getByLabel('内容').fill('今晚 23:00 至 23:30 进行系统维护，期间暂停服务。');
  await expect(compose.getByLabel('全体用户')).toBeChecked();
  await compose.getByRole('button', { name: '发送' }).click();
  await expect(compose).toBeHidden();
  const messageRow = page.locator('.ant-table-row', { hasText: title });
  await expect(messageRow).toContainText('全体用户');
  await expect(messageRow).toContainText('正常');

  let inbox = await unread();
  expect(inbox.total).toBe(1);
  expect(inbox.list?.[0]?.title).toBe(title);
  const messageId = inbox.list?.[0]?.id as number;

  expect((await api('/api/message/read', { id: messageId }, token)).code).toBe(200);
  expect((await unread()).total).toBe(0);
  expect((await api('/api/message/unread', { id: messageId }, token)).code).toBe(200);
  inbox = await unread();
  expect(inbox.total).toBe(1);
  expect(inbox.list?.[0]?.id).toBe(messageId);
  const all = await api('/api/message/read/all', {}, token);
  expect(all.code).toBe(200);
  expect((await unread()).total).toBe(0);

  // The read shows in the operator's list after a refresh.
  await page.reload();
  await expect(page.locator('.ant-table-row', { hasText: title })).toBeVisible();
});
