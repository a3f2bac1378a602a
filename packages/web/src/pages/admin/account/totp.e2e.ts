import { admin, api, ensureSiteReady, freshPhone, sha256, shoot } from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';
import { TOTP } from 'otpauth';

/**
 * Two-factor sign-in (issue 30): an operator binds an authenticator in 个人中心 by its QR code's
 * secret, keeps the recovery codes shown once, and from then on signs in with the password and
 * the code an authenticator would show (computed here), or a recovery code.
 */
test.describe.configure({ mode: 'serial' });

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
  await ensureSiteReady();
  // An operator of this spec's own: the first admin stays password-only for every other spec.
  const phone = freshPhone('137');
  const password = 'Totp2026ok';
  const registered = await api('/api/users/register', { phone, password: sha256(password), app: 'tailor' });
  expect(registered.code).toBe(200);
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const id = registered.data?.user.id as number;
  expect((await api('/api/users/update/admin', { id, isAdmin: true }, adminToken)).code).toBe(200);

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
