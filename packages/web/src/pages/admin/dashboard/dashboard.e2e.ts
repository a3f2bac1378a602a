import { formatExactTime } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { admin, api, cellOf, ensureSiteReady, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';
import { appUserWithCoins, createItem, importCodes } from '../exchange/e2e-steps';
import { shipRecord } from '../exchangerecord/e2e-steps';
import { approveClaim, claimReview, rejectClaim } from '../reviewreward/e2e-steps';

type Cards = ApiOutput<'/api/dashboard/fetch/cards'>['cards'];
type CardKey = keyof Cards;
type Charts = ApiOutput<'/api/dashboard/fetch/charts'>;

/** The dashboard's own tab (the workspace keeps other pages' tabs mounted beside it). */
const board = (page: Page) => page.getByRole('tabpanel', { name: '数据统计' });
const card = (page: Page, key: CardKey) => board(page).locator(`[data-card="${key}"]`);
const figure = async (page: Page, key: CardKey) =>
  Number(((await card(page, key).locator('.ant-statistic-content').innerText()) ?? '').replace(/[,\s]/g, ''));
/** A chart's figures in words (its text alternative). */
const summary = (page: Page, chart: 'users' | 'orders' | 'channels' | 'items') =>
  board(page).locator(`[data-summary="${chart}"]`);
/** The rows of the list on view (the workspace keeps other tabs' lists mounted, hidden). */
const rows = (page: Page) => page.locator('tr.ant-table-row:visible');
const adminSignIn = async () =>
  (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data?.token as string;

/**
 * Clicks 刷新 until both the cards and the charts were computed at or after `since` (a refresh
 * within 5 s of the last computation gets the kept figures, so it may take a few clicks), and
 * answers those fresh figures.
 */
async function refreshed(page: Page, since: number) {
  const fresh: { cards?: Cards; charts?: Charts } = {};
  const answered = (path: string) =>
    page
      .waitForResponse((r) => r.url().endsWith(path))
      .then(async (r) => ((await r.json()) as { data: { generatedAt: string } }).data);
  await expect
    .poll(
      async () => {
        const cards = answered('/api/dashboard/fetch/cards');
        const charts = answered('/api/dashboard/fetch/charts');
        await board(page).getByRole('button', { name: '刷新' }).click();
        const [c, ch] = await Promise.all([cards, charts]);
        if (Date.parse(c.generatedAt) >= since) fresh.cards = (c as unknown as { cards: Cards }).cards;
        if (Date.parse(ch.generatedAt) >= since) fresh.charts = ch as unknown as Charts;
        return Boolean(fresh.cards && fresh.charts);
      },
      { timeout: 40_000, intervals: [1_000] },
    )
    .toBe(true);
  await expect(board(page).getByRole('button', { name: '刷新' })).not.toHaveClass(/loading/);
  return fresh as { cards: Cards; charts: Charts };
}

/** Every card shows `expected` (the figures the page was answered, as the test expects them). */
async function cardsShow(page: Page, expected: Partial<Record<CardKey, number>>) {
  for (const [key, value] of Object.entries(expected)) {
    await expect.poll(() => figure(page, key as CardKey), { message: key }).toBe(value);
  }
}

const total = (values: number[]) => values.reduce((s, v) => s + v, 0);
const channelUsers = (charts: Charts, channel: string) =>
  charts.byChannel.find((c) => c.channel === channel)?.users ?? 0;

test('the dashboard counts a new user and a paid order; a card opens its list filtered', async ({ page }) => {
  test.setTimeout(90_000);
  await ensureSiteReady();
  const adminToken = await adminSignIn();

  await signInAdmin(page);
  await page.goto('/admin/admin/dashboard');
  await expect(card(page, 'usersNewToday')).toBeVisible({ timeout: 30_000 });
  const before = (await refreshed(page, Date.now())).cards;
  await cardsShow(page, { usersNewToday: before.usersNewToday.value });

  const plan = await api(
    '/api/plan/make',
    { name: `统计套餐${String(Date.now()).slice(-5)}`, price: 1234, durationDays: 7, onSale: true },
    adminToken,
  );
  expect(plan.code).toBe(200);
  const { token: userToken } = await appUserWithCoins(adminToken, 0);
  const ordered = await api(
    '/api/order/make',
    { planId: plan.data?.plan.id as number, payMethod: 'wechat' },
    userToken,
  );
  expect(ordered.code).toBe(200);
  expect(
    (await api('/api/order/pay', { id: ordered.data?.order.id as number, note: '统计测试' }, adminToken)).code,
  ).toBe(200);

  const after = (await refreshed(page, Date.now())).cards;
  expect(after.usersNewToday.value).toBe(before.usersNewToday.value + 1);
  expect(after.revenueToday.value).toBe(before.revenueToday.value + 1234);
  await expect.poll(() => figure(page, 'usersNewToday')).toBe(before.usersNewToday.value + 1);
  await expect.poll(() => figure(page, 'revenueToday')).toBeCloseTo((before.revenueToday.value + 1234) / 100, 2);
  await shoot(page, 'dashboard');

  await card(page, 'revenueToday').click();
  await expect(page).toHaveURL(/\/admin\/admin\/order\?status=paid/);
  await expect(rows(page).first()).toContainText('已支付');
});

/**
 * Issue 11, done-when 1 in one run: the operator makes a VIP item, a code item with three
 * imported codes and a physical item in the console; an app user redeems each through the API;
 * the operator ships the physical one from the list the 待发货兑换 card opens; one review claim is
 * approved and another rejected with a typed reason; the dashboard's cards and charts move by
 * exactly what happened, after each step, once 刷新 has recomputed them.
 */
test('shop, shipping and review rewards end to end, as the dashboard counts them', async ({ page }) => {
  test.setTimeout(240_000);
  await ensureSiteReady();
  const adminToken = await adminSignIn();
  const tag = `${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 10)}`;
  const names = { vip: `季度会员${tag}`, code: `视频会员码${tag}`, physical: `定制水杯${tag}` };
  const codes = ['A', 'B', 'C'].map((x) => `DM-${tag}-${x}`);
  const cost = { vip: 90, code: 40, physical: 260 };
  const spent = cost.vip + cost.code + cost.physical;

  await signInAdmin(page);
  await page.goto('/admin/admin/dashboard?range=today');
  await expect(card(page, 'usersNewToday')).toBeVisible({ timeout: 30_000 });
  const base = await refreshed(page, Date.now());
  const was = (key: CardKey) => base.cards[key].value;
  await cardsShow(page, { coinsSpentToday: was('coinsSpentToday'), exchangesWaiting: was('exchangesWaiting') });

  // The three items, through the console.
  await page.goto('/admin/admin/exchange');
  const vipId = await createItem(page, {
    name: names.vip,
    kind: 'vip_days',
    value: 90,
    costCoins: cost.vip,
    stock: 20,
    perUserLimit: 1,
  });
  const codeId = await createItem(page, { name: names.code, kind: 'code', costCoins: cost.code });
  const physicalId = await createItem(page, {
    name: names.physical,
    kind: 'physical',
    description: '刻字定制，7 个工作日内发货',
    costCoins: cost.physical,
    stock: 5,
  });
  await importCodes(page, names.code, codes);
  const rowOf = (name: string) => rows(page).filter({ hasText: name });
  await expect(rowOf(names.vip)).toContainText('会员 90 天');
  await expect(await cellOf(rowOf(names.code), '库存')).toHaveText('3');
  await expect(await cellOf(rowOf(names.physical), '库存')).toHaveText('5');

  // An app user from the vivo store redeems each through the API.
  const user = await appUserWithCoins(adminToken, 1000, 'vivo');
  // Read, not assumed: other specs on the same server may set a sign-up or sign-in reward.
  const coinsBefore = (await api('/api/users/fetch/info', {}, user.token)).data?.user.coins as number;
  expect(coinsBefore).toBeGreaterThanOrEqual(1000);
  const vip = await api('/api/exchange/make', { itemId: vipId }, user.token);
  expect(vip.data?.record.status).toBe('done');
  const code = await api('/api/exchange/make', { itemId: codeId }, user.token);
  expect(code.data?.record.status).toBe('done');
  expect(codes).toContain(code.data?.record.code);
  const box = await api(
    '/api/exchange/make',
    {
      itemId: physicalId,
      receiverName: '赵六',
      receiverPhone: '13712345678',
      address: '广东省深圳市南山区科技园南区 8 栋',
    },
    user.token,
  );
  expect(box.data?.record.status).toBe('waiting');
  const info = (await api('/api/users/fetch/info', {}, user.token)).data?.user;
  expect(info?.coins).toBe(coinsBefore - spent);
  expect(Date.parse(info?.vipExpiresAt ?? '')).toBeGreaterThan(Date.now() + 89 * 86_400_000);
  expect((await claimReview(user.token, 'huawei')).code).toBe(200);
  expect((await claimReview(user.token, 'xiaomi')).code).toBe(200);

  // The dashboard, recomputed: every card and chart moved by exactly that.
  await page.goto('/admin/admin/dashboard?range=today');
  const mid = await refreshed(page, Date.now());
  const moved = {
    usersTotal: was('usersTotal') + 1,
    usersNewToday: was('usersNewToday') + 1,
    usersActiveToday: was('usersActiveToday') + 1,
    vipsActive: was('vipsActive') + 1,
    // The 1000 granted plus any sign-up reward another spec configured: all of coinsBefore.
    coinsIssuedToday: was('coinsIssuedToday') + coinsBefore,
    coinsSpentToday: was('coinsSpentToday') + spent,
    exchangesWaiting: was('exchangesWaiting') + 1,
    reviewRewardsPending: was('reviewRewardsPending') + 2,
  };
  for (const [key, value] of Object.entries(moved)) expect(mid.cards[key as CardKey].value, key).toBe(value);
  await cardsShow(page, moved);
  const signups = total(base.charts.series.signups) + 1;
  expect(total(mid.charts.series.signups)).toBe(signups);
  expect(channelUsers(mid.charts, 'vivo')).toBe(channelUsers(base.charts, 'vivo') + 1);
  for (const id of [vipId, codeId, physicalId]) {
    expect(mid.charts.topItems.find((i) => i.itemId === id)?.count).toBe(1);
  }
  await expect(summary(page, 'users')).toContainText(`新增用户共 ${signups.toLocaleString('zh-CN')} 人`);
  await expect(summary(page, 'channels')).toContainText(
    `vivo 应用商店 ${channelUsers(mid.charts, 'vivo').toLocaleString('zh-CN')} 人`,
  );
  for (const name of Object.values(names)) await expect(summary(page, 'items')).toContainText(`${name} 1 次`);
  await expect(board(page).getByRole('img', { name: '今日兑换次数最多的商品排行图' })).toBeVisible();
  await shoot(page, 'dashboard-shop');

  // 待发货兑换 opens the exchange records filtered to waiting ones; the physical one ships from there.
  await card(page, 'exchangesWaiting').click();
  await expect(page).toHaveURL(/\/admin\/admin\/exchangerecord\?status=waiting$/);
  await expect(page.getByRole('tab', { name: '待发货', selected: true })).toBeVisible();
  const record = rows(page).filter({ hasText: names.physical });
  await expect(record).toContainText('待发货');
  await shipRecord(page, record, '圆通速递', `YT${tag}88`);
  await expect(record).toHaveCount(0);
  const unread = await api('/api/message/fetch/page/unread', { page: 0, size: 20 }, user.token);
  expect(JSON.stringify(unread.list)).toContain(`YT${tag}88`);

  // 待审核好评奖励 opens the pending claims; this user's two are decided.
  await page.goto('/admin/admin/dashboard?range=today');
  await card(page, 'reviewRewardsPending').click();
  await expect(page).toHaveURL(/\/admin\/admin\/reviewreward\?status=pending$/);
  await expect(page.getByRole('tab', { name: '待审核', selected: true })).toBeVisible();
  await page.goto(`/admin/admin/reviewreward?status=pending&phone=${user.phone}`);
  const claims = rows(page);
  await expect(claims).toHaveCount(2);
  await approveClaim(page, claims.filter({ hasText: '华为' }));
  await expect(claims).toHaveCount(1);
  await rejectClaim(page, claims.first(), '截图里的应用不是本应用', { typed: true });
  await expect(claims).toHaveCount(0);
  // The coins the approval paid, read from the claim: the review-reward spec may change the setting meanwhile.
  const decided = await api(
    '/api/reviewreward/fetch/page',
    { page: 0, size: 10, status: 'approved', phone: user.phone },
    adminToken,
  );
  const reward = decided.data?.list[0]?.coins as number;
  expect(reward).toBeGreaterThan(0);
  expect((await api('/api/users/fetch/info', {}, user.token)).data?.user.coins).toBe(coinsBefore - spent + reward);
  const titles = ((await api('/api/message/fetch/page/unread', { page: 0, size: 50 }, user.token)).list ?? []).map(
    (m) => m.title,
  );
  expect(titles).toEqual(expect.arrayContaining(['好评奖励已发放', '好评奖励申请未通过']));

  // Shipped and decided: the waiting and pending cards are back, the reward counts as issued.
  await page.goto('/admin/admin/dashboard?range=today');
  const end = await refreshed(page, Date.now());
  const settled = {
    ...moved,
    coinsIssuedToday: moved.coinsIssuedToday + reward,
    exchangesWaiting: was('exchangesWaiting'),
    reviewRewardsPending: was('reviewRewardsPending'),
  };
  for (const [key, value] of Object.entries(settled)) expect(end.cards[key as CardKey].value, key).toBe(value);
  await cardsShow(page, settled);
  for (const name of Object.values(names)) await expect(summary(page, 'items')).toContainText(`${name} 1 次`);
  await shoot(page, 'dashboard-settled');
});

test.describe('in a browser set to another time zone', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('统计时间 is Beijing time, as every table shows times', async ({ page }) => {
    await ensureSiteReady();
    await signInAdmin(page);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/dashboard/fetch/cards'));
    await page.goto('/admin/admin/dashboard');
    const { data } = (await (await answered).json()) as { data: { generatedAt: string } };
    await expect(board(page).locator('[data-generated-at]')).toHaveText(formatExactTime(data.generatedAt));
    await expect(board(page).locator('.dash-note').first()).toContainText('（北京时间）');
    await expect(board(page).locator('canvas').first()).toBeVisible();
    await shoot(page, 'dashboard-new-york');
  });
});
