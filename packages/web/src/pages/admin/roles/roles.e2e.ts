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
import { expect, type Locator, test } from '@playwright/test';

/** The tree row of a page or an action (antd renders the tree as a flat list of rows). */
const treeRow = (drawer: Locator, title: string) =>
  drawer.locator('.ant-tree-treenode').filter({ has: drawer.page().getByText(title, { exact: true }) });

test('a 财务-like role, an operator holding it, and their first sign-in showing only their pages', async ({
  page,
  browser,
}) => {
  await ensureSiteReady();
  await signInAdmin(page);
  const serial = String(Date.now()).slice(-6);
  const roleName = `对账${serial}`;

  // 角色管理: the built-in roles, 超级管理员 only to look at.
  await page.goto('/admin/admin/roles');
  const superRow = page.locator('.ant-table-row', { hasText: '超级管理员' });
  await expect(superRow).toContainText('全部权限');
  await shoot(page, 'roles-list');
  await superRow.getByRole('button', { name: '查看' }).click();
  const view = page.getByRole('dialog', { name: '查看角色：超级管理员' });
  await expect(view).toContainText('超级管理员不可修改');
  await shoot(page, 'roles-super');
  await view.getByRole('button', { name: 'Close' }).or(view.locator('.ant-drawer-close')).first().click();
  await expect(view).toBeHidden();

  // A new role: 订单管理's actions (checking the page checks them all) and 数据统计.
  await page.getByRole('button', { name: '新建角色' }).click();
  const drawer = page.getByRole('dialog', { name: '新建角色' });
  await drawer.getByLabel('角色名称').fill(roleName);
  await drawer.getByLabel('角色说明').fill('订单收款、退款与导出');
  await treeRow(drawer, '订单管理').locator('.ant-tree-checkbox').click();
  await treeRow(drawer, '数据统计').locator('.ant-tree-checkbox').click();
  // The pages held open by themselves, each action in Chinese; the sensitive ones say so.
  const refund = treeRow(drawer, '退款');
  await expect(refund).toHaveClass(/ant-tree-treenode-checkbox-checked/);
  await expect(refund).toContainText('敏感');
  await expect(treeRow(drawer, '订单管理')).toContainText('5/5');
  await shoot(page, 'roles-editor-tree');
  await drawer.locator('.ant-drawer-body').evaluate((body) => body.scrollTo(0, 0));
  await shoot(page, 'roles-editor');
  await expectNotice(page, '角色已创建', () => drawer.getByRole('button', { name: '保存' }).click());
  const roleRow = page.locator('.ant-table-row', { hasText: roleName });
  await expect(roleRow).toContainText('2 个页面 · 6 项权限');
  await expect(roleRow).toContainText('含 3 项敏感');

  // 操作员管理: a new operator with it; the initial password is shown once.
  await page.goto('/admin/admin/operators');
  await page.getByRole('button', { name: '新建操作员' }).click();
  const editor = page.getByRole('dialog', { name: '新建操作员' });
  const phone = freshPhone('136');
  await editor.getByRole('textbox', { name: '手机号' }).fill(phone);
  await editor.getByRole('textbox', { name: '昵称' }).fill(`财务${serial}`);
  await expect(editor).toContainText('没有角色的操作员可以登录后台，但看不到任何菜单');
  await editor.getByRole('checkbox', { name: new RegExp(roleName) }).check();
  await shoot(page, 'operators-editor');
  await editor.getByRole('button', { name: '保存' }).click();
  const shown = page.getByRole('dialog', { name: '操作员已创建：初始密码' });
  const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
  await expect(shown).toContainText(masked);
  const initial = (await shown.locator('code').innerText()).trim();
  expect(initial).toMatch(/^[A-Za-z2-9]{10}$/);
  await shoot(page, 'operators-initial-password');
  await shown.getByRole('button', { name: '我已告知操作员，关闭' }).click();
  const row = page.locator('.ant-table-row', { hasText: masked });
  await expect(row).toContainText(roleName);
  await expect(row).toContainText('待修改初始密码');
  await expect(page.locator('body')).not.toContainText(phone);
  await shoot(page, 'operators-list');

  // Their first sign-in changes the password (the one just typed is the current one), then the
  // console shows their pages only.
  const context = await browser.newContext();
  const them = await context.newPage();
  await them.goto('/user/login');
  await them.getByLabel('手机号').fill(phone);
  await them.getByLabel('密码').fill(initial);
  await them.getByRole('button', { name: '登录' }).click();
  await expect(them.getByRole('heading', { name: '修改初始密码' })).toBeVisible();
  await them.getByLabel('新密码', { exact: true }).fill('Ledger2026x');
  await them.getByLabel('确认新密码').fill('Ledger2026x');
  await them.getByRole('button', { name: '修改密码并继续' }).click();
  await expect(them).toHaveURL(/\/admin\/admin\//);
  const menu = them.locator('.admin-menu');
  await expect(menu).toContainText('商业化');
  await expect(menu).toContainText('概览');
  for (const group of ['用户与消息', '版本与配置', '内容与素材', '系统']) await expect(menu).not.toContainText(group);
  // The groups' entries, with the menu unfolded if this browser starts it folded.
  const unfold = them.getByRole('button', { name: '展开菜单' });
  if (await unfold.isVisible()) await unfold.click();
  await menu.getByText('商业化').click();
  await expect(menu).toContainText('订单管理');
  for (const entry of ['会员套餐', '内购记录', '金币流水']) await expect(menu).not.toContainText(entry);
  await them.goto('/admin/admin/order');
  await expect(them.locator('.list-form')).toBeVisible();
  await shoot(them, 'operators-finance-console');
  await context.close();

  // Back in 操作员管理, their sign-in is listed.
  await page.reload();
  await expect(row).not.toContainText('待修改初始密码');
});

test('an operator without a role signs in and is told why the console is empty', async ({ page }) => {
  await ensureSiteReady();
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const phone = freshPhone('136');
  const made = await api(
    '/api/operators/make',
    { phone, nickname: `新人${String(Date.now()).slice(-6)}`, roleIds: [] },
    login.data?.token as string,
  );
  expect([made.code, made.message]).toEqual([200, made.message]);
  await page.goto('/user/login');
  await page.getByLabel('手机号').fill(phone);
  await page.getByLabel('密码').fill(made.data?.password as string);
  await page.getByRole('button', { name: '登录' }).click();
  await page.getByLabel('新密码', { exact: true }).fill('Newcomer2026');
  await page.getByLabel('确认新密码').fill('Newcomer2026');
  await page.getByRole('button', { name: '修改密码并继续' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\//);
  await expect(page.getByText('你的账号还没有分配角色')).toBeVisible();
  await expect(page.locator('.admin-menu .ant-menu-item')).toHaveCount(0);
  await shoot(page, 'operators-no-roles');
});
