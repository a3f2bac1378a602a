import { readFileSync } from 'node:fs';
import path from 'node:path';
import { admin, api, ensureSiteReady, freshPhone, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { chainFrom } from '../../../../../server/test/storekit-chain';

/** Issue 10, done-when 2 in the browser: a verified receipt granted once, a forged one refused with its reason. */
test('StoreKit receipts: verified and granted once, forged ones rejected with the reason, payload shown', async ({
  page,
}) => {
  await ensureSiteReady();
  const chain = chainFrom(
    JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR ?? '', 'storekit-chain.json'), 'utf8')),
  );
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const suffix = String(Date.now()).slice(-6);
  const productId = `com.example.tailor.coins${suffix}`;
  const made = await api(
    '/api/iap/make',
    { platform: 'ios', productId, type: 'consumable', name: `金币包${suffix}`, price: 600, coins: 60 },
    adminToken,
  );
  expect(made.code).toBe(200);
  const phone = freshPhone('137');
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' });
  const userToken = registered.data?.token as string;

  const now = Date.now();
  const tx = {
    transactionId: `2000${suffix}`,
    originalTransactionId: `2000${suffix}`,
    bundleId: 'com.example.tailor',
    productId,
    purchaseDate: now,
    signedDate: now,
    environment: 'Sandbox',
    type: 'Consumable',
  };
  const signed = chain.sign(tx);
  const first = await api('/api/iaprecord/apple', { signedTransaction: signed }, userToken);
  expect(first.data).toMatchObject({ duplicate: false, record: { status: 'granted' } });
  const again = await api('/api/iaprecord/apple', { signedTransaction: signed }, userToken);
  expect(again.data).toMatchObject({ duplicate: true });
  const forged = chain.signWithWrongKey({ ...tx, transactionId: `2001${suffix}` });
  expect((await api('/api/iaprecord/apple', { signedTransaction: forged }, userToken)).data).toMatchObject({
    record: { status: 'rejected' },
  });

  await signInAdmin(page);
  await page.goto(`/admin/admin/iaprecord?phone=${phone}`);
  await expect(page.getByText('App Store 收据离线验证已开启')).toBeVisible();
  // Issue 27: the operator reads words, not the server's environment variable names.
  await expect(page.locator('.admin-content')).not.toContainText(/[A-Z]{2,}_[A-Z]{2,}/);
  const rows = page.locator('.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `2000${suffix}` })).toContainText('已发放');
  await expect(rows.filter({ hasText: `2001${suffix}` })).toContainText('签名无效或证书链不受信任');
  await shoot(page, 'iaprecord-list');

  await page.goto(`/admin/admin/iaprecord?phone=${phone}&status=rejected`);
  await expect(rows).toHaveCount(1);
  await page.goto(`/admin/admin/iaprecord?phone=${phone}&status=granted`);
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog', { name: '内购记录详情' });
  await expect(drawer).toContainText('60 金币');
  await expect(drawer.getByTestId('iap-payload')).toContainText(`"transactionId": "2000${suffix}"`);
  await shoot(page, 'iaprecord-detail');
});
