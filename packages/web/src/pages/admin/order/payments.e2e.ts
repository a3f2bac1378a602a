import { readFileSync } from 'node:fs';
import path from 'node:path';
import { admin, api, baseUrl, ensureSiteReady, freshPhone, sha256, shoot, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { alipayBody, alipayFields, type PaymentKeys, wechatCallback } from '../../../../../server/test/payment-signers';

/** Issue 10, done-when 2: Alipay and WeChat Pay notifications pay their orders once; a wrong amount is refused. */
test('payment notifications pay orders once, a wrong amount is refused, the order shows both', async ({ page }) => {
  await ensureSiteReady();
  const keys = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR ?? '', 'payment-keys.json'), 'utf8'),
  ) as PaymentKeys;
  const adminToken = (await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) })).data
    ?.token as string;
  const name = `通知会员${String(Date.now()).slice(-5)}`;
  const plan = await api('/api/plan/make', { name, price: 1200, durationDays: 7, onSale: true }, adminToken);
  const planId = plan.data?.plan.id as number;
  const phone = freshPhone('135');
  const userToken = (await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor' })).data
    ?.token as string;
  const make = async (payMethod: 'alipay' | 'wechat') =>
    (await api('/api/order/make', { planId, payMethod }, userToken)).data?.order.orderNo as string;
  const alipayNo = await make('alipay');
  const wechatNo = await make('wechat');

  const postAlipay = (amount: string) =>
    fetch(`${baseUrl}/api/payment/alipay/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: alipayBody(alipayFields(keys, alipayNo, amount), keys.alipayPrivateKey),
    }).then((r) => r.text());
  expect(await postAlipay('0.01')).toBe('fail');
  expect(await Promise.all([postAlipay('12.00'), postAlipay('12.00'), postAlipay('12.00')])).toEqual([
    'success',
    'success',
    'success',
  ]);
  const callback = wechatCallback(keys, wechatNo, 1200);
  const wechat = await Promise.all(
    [1, 2].map(() =>
      fetch(`${baseUrl}/api/payment/wechat/notify`, { method: 'POST', headers: callback.headers, body: callback.body }),
    ),
  );
  expect(wechat.map((r) => r.status)).toEqual([204, 204]);

  await signInAdmin(page);
  await page.goto(`/admin/admin/order?phone=${phone}`);
  await expect(page.getByText('支付宝、微信支付的异步通知已开启')).toBeVisible();
  const rows = page.locator('.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: wechatNo })).toContainText('已支付');
  await rows.filter({ hasText: alipayNo }).getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog', { name: '订单详情' });
  await expect(drawer).toContainText('支付宝支付通知确认收款 ¥12.00');
  await expect(drawer.getByText('金额不符：通知 1 分，订单 1200 分')).toBeVisible();
  await expect(drawer.getByText('重复通知', { exact: true })).toHaveCount(2);
  await expect(drawer.locator('.order-timeline')).toContainText('发放权益');
  await shoot(page, 'order-payment-notices');
});
