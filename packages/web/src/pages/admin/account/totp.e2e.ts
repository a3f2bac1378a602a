import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { api, ensureSiteReady, freshPhone, sha256, shoot } from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { TOTP } from 'otpauth';

/**
 * Two-factor sign-in (issue 30): an operator binds an authenticator in 个人中心 by its QR code's
 * secret, keeps the recovery codes shown once, and from then on signs in with the password and
 * the code an authenticator would show (computed here), or a recovery code.
 */
test.describe.configure({ mode: 'serial' });
// Setting the operators up reaches the run's SQLite database (the roles pages are another part of this work).
test.skip(process.env.E2E_TOPOLOGY === 'cluster', 'sets its operators up in the SQLite database of the run');

const dataDir = process.env.E2E_DATA_DIR ?? '';
const serverMain = path.resolve(import.meta.dirname, '../../../../../server/dist/main.js');

/** A new account made an operator holding 超级管理员, as `npm run admin -- grant` does. */
async function newOperator(prefix: string): Promise<{ phone: string; password: string }> {
  await ensureSiteReady();
  const phone = freshPhone(prefix);
  const password = 'Totp2026ok';
  expect((await api('/api/users/register', { phone, password: sha256(password), app: 'tailor' })).code).toBe(200);
  execFileSync(process.execPath, [serverMain, 'admin', 'grant', phone], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: 'pipe',
  });
  return { phone, password };
}

/** Gives the operator a role of its own that requires two-factor sign-in. */
function requireTotpOf(phone: string) {
  const db = new Database(path.join(dataDir, 'appdesk.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const now = Date.now();
    const role = db
      .prepare('insert into roles (name, permissions, require_totp, created_at, updated_at) values (?, ?, 1, ?, ?)')
      .run(`两步验证角色 ${now}`, '["dashboard.read"]', now, now);
    const user = db.prepare('select id from users where phone = ?').get(phone) as { id: number };
    db.prepare('insert into operator_roles (user_id, role_id) values (?, ?)').run(user.id, role.lastInsertRowid);
  } finally {
    db.close();
  }
}

/** The code an authenticator app shows `steps` time steps from now (the server takes one either side). */
const codeOf = (secret: string, steps = 0) => new TOTP({ secret }).generate({ timestamp: Date.now() + steps * 30_000 });

/** Types a code into the six boxes (they move on by themselves, and send it once full). */
async function typeCode(page: Page, code: string) {
  await page.locator('.ant-otp-input').first().click();
  await page.keyboard.type(code);
}

async function firstStep(page: Page, phone: string, password: string) {
  await page.goto('/user/login');
  await page.getByLabel('手机号').fill(phone);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
}

test('an operator binds an authenticator, then signs in with its code or a recovery code', async ({
  page,
  browser,
}) => {
  // An operator of this spec's own: the first admin stays password-only for every other spec.
  const { phone, password } = await newOperator('137');
  await firstStep(page, phone, password);
  await expect(page).toHaveURL(/\/admin\/admin\//);
  await page.goto('/admin/admin/account');
  const card = page.locator('.ant-card').filter({ has: page.getByText('两步验证', { exact: true }) });
  await expect(card.getByRole('button', { name: '开启两步验证…' })).toBeEnabled();
  await shoot(page, 'totp-account-off');

  await card.getByRole('button', { name: '开启两步验证…' }).click();
  const bind = page.getByRole('dialog', { name: '绑定验证器' });
  await expect(bind.locator('.ant-qrcode')).toBeVisible();
  const secret = (await bind.locator('code').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shoot(page, 'totp-bind');
  await typeCode(page, codeOf(secret));

  const saved = page.getByRole('dialog', { name: '保存恢复码' });
  await expect(saved.locator('li')).toHaveCount(10);
  const recoveryCodes = (await saved.locator('li code').allInnerTexts()).map((c) => c.trim());
  await shoot(page, 'totp-recovery-codes');
  await saved.getByRole('button', { name: '我已保存' }).click();
  await expect(card.getByText('已开启', { exact: true })).toBeVisible();
  await expect(card).toContainText('剩余恢复码 10 个');
  await shoot(page, 'totp-account-on');

  // Signing in now takes the code: the password alone opens nothing.
  const next = await browser.newPage();
  await firstStep(next, phone, password);
  await expect(next.getByRole('heading', { name: '两步验证' })).toBeVisible();
  await expect(next).toHaveURL(/\/user\/login/);
  await shoot(next, 'totp-sign-in-code');
  // The enrolment spent this step's code: the next step's is good now too.
  await typeCode(next, codeOf(secret, 1));
  await expect(next).toHaveURL(/\/admin\/admin\/dashboard/);
  await next.close();

  // Without the phone: 「使用恢复码」.
  const lost = await browser.newPage();
  await firstStep(lost, phone, password);
  await lost.getByRole('button', { name: '使用恢复码' }).click();
  await lost.getByLabel('恢复码').fill(recoveryCodes[0]);
  await shoot(lost, 'totp-sign-in-recovery');
  await lost.getByRole('button', { name: '登录', exact: true }).click();
  await expect(lost).toHaveURL(/\/admin\/admin\/dashboard/);
  await lost.goto('/admin/admin/account');
  await expect(lost.locator('.ant-card').filter({ hasText: '两步验证' })).toContainText('剩余恢复码 9 个');
  await lost.close();
});

test('an operator whose role requires it binds an authenticator before the console opens', async ({ page }) => {
  const { phone, password } = await newOperator('139');
  requireTotpOf(phone);
  await firstStep(page, phone, password);
  await expect(page.getByRole('heading', { name: '绑定两步验证' })).toBeVisible();
  await expect(page.getByText('你的角色要求开启两步验证')).toBeVisible();
  // The console answers nothing before it (433): it brings the operator back here, then returns.
  await page.goto('/admin/admin/loginlog');
  await expect(page).toHaveURL(/\/user\/login\?enrol=1&redirect=%2Fadmin%2Fadmin%2Floginlog/);
  await expect(page.locator('.ant-qrcode')).toBeVisible();
  await shoot(page, 'totp-required-enrol');
  const secret = (await page.locator('.totp-enrol-secret code').innerText()).replace(/\s/g, '');
  await typeCode(page, codeOf(secret));
  await expect(page.getByRole('heading', { name: '保存恢复码' })).toBeVisible();
  await expect(page.locator('.totp-codes li')).toHaveCount(10);
  await page.getByRole('button', { name: '我已保存，进入后台' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\/loginlog/);
});
