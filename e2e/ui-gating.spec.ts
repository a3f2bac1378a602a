import { expect, type Page, test } from '@playwright/test';
import { collapseMenu, makeOperator, menuEntries, signInOperator } from './operators';
import { admin, api, ensureSiteReady, freshPhone, sha256, shoot } from './support';

/**
 * Issue 30, done-when 1: the console shows each operator only what their roles allow (the server
 * checks every call anyway). A 客服 handles feedback and messages and sees masked phones, with no
 * refund, export or reveal; a 财务 refunds and exports orders and has no 版本管理; an operator
 * without roles is told so; one without 数据统计 lands on their first page.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.skip(process.env.E2E_TOPOLOGY === 'cluster', 'operators are given roles through the SQLite test database');

/** A user of the spec's own with a feedback, and a paid order: what the operators look at. */
async function seed() {
  await ensureSiteReady();
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const phone = freshPhone('139');
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  const token = registered.data?.token as string;
  const marker = `权限测试${String(Date.now()).slice(-6)}`;
  const sent = await api(
    '/api/feedback/make',
    { app: 'tailor', content: `${marker}：导出按钮在哪里？`, deviceId: `e2e-${marker}` },
    token,
  );
  expect([sent.code, sent.message]).toEqual([200, sent.message]);
  const plan = await api(
    '/api/plan/make',
    { name: `月度会员${marker.slice(-4)}`, price: 1800, durationDays: 30, bonusCoins: 0, onSale: true },
    adminToken,
  );
  expect(plan.code).toBe(200);
  const ordered = await api('/api/order/make', { planId: plan.data?.plan.id as number, payMethod: 'wechat' }, token);
  expect(ordered.code).toBe(200);
  const paid = await api('/api/order/pay', { id: ordered.data?.order.id as number, note: '权限测试' }, adminToken);
  expect(paid.code).toBe(200);
  return { phone, marker, orderId: ordered.data?.order.id as number, orderNo: ordered.data?.order.orderNo as string };
}

let data: Awaited<ReturnType<typeof seed>>;
test.beforeAll(async () => {
  data = await seed();
});

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;

async function openOrder(page: Page, phone: string, orderNo: string) {
  await page.goto(`/admin/admin/order?phone=${phone}`);
  const row = page.locator('.ant-table-row', { hasText: orderNo });
  await row.getByText(orderNo).click();
  const drawer = page.getByRole('dialog', { name: '订单详情' });
  await expect(drawer.getByText('已支付').first()).toBeVisible();
  return drawer;
}

test('客服: feedback and messages, masked phones; no refund, export or reveal; no 版本管理', async ({ page }) => {
  const support = await makeOperator([{ builtin: 'support' }]);
  await signInOperator(page, support);
  await expect(page).toHaveURL(/\/admin\/admin\/dashboard/);
  const menu = await menuEntries(page);
  expect(menu).toEqual(
    expect.arrayContaining(['数据统计', '用户管理', '站内消息', '意见反馈', '反馈工单', '订单管理']),
  );
  for (const hidden of ['版本管理', '站点配置', '操作日志', '应用管理', '金币流水']) expect(menu).not.toContain(hidden);
  await shoot(page, 'gating-support-menu');
  await collapseMenu(page);

  // Users: masked phones with no eye, no export, no 生成账号; the batch bar offers only messages.
  await page.goto(`/admin/admin/users?search=${data.phone}`);
  const row = page.locator('.ant-table-row', { hasText: masked(data.phone) });
  await expect(row).toBeVisible();
  await expect(page.getByRole('button', { name: '查看完整手机号' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '导出 Excel' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '生成账号' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: /更多/ })).toHaveCount(0);
  await row.getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: '批量操作' });
  await expect(bar.getByRole('button', { name: '发送消息' })).toBeVisible();
  for (const hidden of ['批量封禁', '批量解封', '导出所选'])
    await expect(bar.getByRole('button', { name: hidden })).toHaveCount(0);
  await shoot(page, 'gating-support-users');

  // Feedback: reply, no export.
  await page.goto(`/admin/admin/feedback?search=${data.marker}`);
  const feedback = page.locator('.ant-table-row', { hasText: data.marker });
  await expect(feedback.getByRole('button', { name: '回复' })).toBeVisible();
  await expect(page.getByRole('button', { name: '导出 Excel' })).toHaveCount(0);

  // Messages: send, not block, not export.
  await page.goto('/admin/admin/message');
  await expect(page.getByRole('button', { name: '发送消息' })).toBeVisible();
  await expect(page.getByRole('button', { name: '屏蔽' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '导出 Excel' })).toHaveCount(0);

  // Orders: read, but neither refund nor export.
  const drawer = await openOrder(page, data.phone, data.orderNo);
  await expect(drawer.getByRole('button', { name: '退款' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: '导出 Excel' })).toHaveCount(0);

  // 版本管理 by its address: the 403 view, naming what is missing and who gives it.
  await page.goto('/admin/admin/version');
  await expect(page.getByText('无权访问此页面')).toBeVisible();
  await expect(page.getByText('「版本管理 · 查看」')).toBeVisible();
  await expect(page.getByText(/联系超级管理员/)).toBeVisible();
  await shoot(page, 'gating-support-403');
  // …and the server agrees.
  const token = (await api('/api/users/login', { phone: support.phone, password: sha256(support.password) })).data
    ?.token as string;
  expect((await api('/api/order/refund', { id: data.orderId, note: '客服试图退款' }, token)).code).toBe(403);
});

test('财务: 退款 and 导出 on orders; no 版本管理 in the menu', async ({ page }) => {
  const finance = await makeOperator([{ builtin: 'finance' }]);
  await signInOperator(page, finance);
  const menu = await menuEntries(page);
  expect(menu).toEqual(expect.arrayContaining(['订单管理', '内购记录', '金币流水']));
  expect(menu).not.toContain('版本管理');
  expect(menu).not.toContain('意见反馈');
  await shoot(page, 'gating-finance-menu');
  await collapseMenu(page);

  const drawer = await openOrder(page, data.phone, data.orderNo);
  await expect(drawer.getByRole('button', { name: '退款' })).toBeVisible();
  await shoot(page, 'gating-finance-order');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: '导出 Excel' })).toBeVisible();
  // The user list is theirs to read, with masked phones and nothing to change.
  await page.goto(`/admin/admin/users?search=${data.phone}`);
  await expect(page.locator('.ant-table-row', { hasText: masked(data.phone) })).toBeVisible();
  await expect(page.getByRole('button', { name: '查看完整手机号' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '导出 Excel' })).toHaveCount(0);
});

test('an operator without roles is told so, and keeps their own account', async ({ page }) => {
  const nobody = await makeOperator([]);
  await signInOperator(page, nobody);
  await expect(page.getByText('你的账号还没有分配角色')).toBeVisible();
  await expect(page.getByRole('button', { name: '重新检查' })).toBeVisible();
  await expect(page.locator('nav[aria-label="管理菜单"] .ant-menu-item')).toHaveCount(0);
  await shoot(page, 'gating-no-role');
  // Their own account stays open.
  await page.getByRole('button', { name: '个人中心', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/account/);
});

test('an operator without 数据统计 lands on their first page', async ({ page }) => {
  const ordersOnly = await makeOperator([{ permissions: ['order.read'] }]);
  await signInOperator(page, ordersOnly);
  await expect(page).toHaveURL(/\/admin\/admin\/order/);
  expect(await menuEntries(page)).toEqual(['订单管理']);
  // The tab bar's first tab is that page; no 数据统计 tab.
  await expect(page.getByRole('tab', { name: '数据统计' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '导出 Excel' })).toHaveCount(0);
  await expect(page.locator('.admin-page .ant-spin-spinning')).toHaveCount(0, { timeout: 30_000 });
  await shoot(page, 'gating-orders-only');
});
