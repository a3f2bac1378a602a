import { type ChannelCode, type ExchangeKind, exchangeKinds } from '@appdesk/contract/constants';
import { api, freshPhone, noticeShown, noticesClosed, sha256 } from '@appdesk/e2e/support';
import { expect, type Page } from '@playwright/test';

/**
 * Steps the shop's end-to-end specs share (exchange, exchangerecord, dashboard): an app user with
 * coins, an item made in the 新建商品 drawer, codes pasted into 导入兑换码.
 */

/** A fresh app user (a phone no earlier run has used) granted `coins` by the operator. */
export async function appUserWithCoins(adminToken: string, coins: number, channel: ChannelCode = 'other') {
  const phone = freshPhone();
  const registered = await api('/api/users/register', { phone, password: sha256('User12345'), app: 'tailor', channel });
  expect(registered.code).toBe(200);
  const token = registered.data?.token as string;
  const id = (registered.data?.user as { id: number } | undefined)?.id as number;
  if (coins > 0) {
    const granted = await api('/api/users/update/coins', { id, delta: coins, reason: '活动奖励' }, adminToken);
    expect(granted.code).toBe(200);
  }
  return { phone, token, id };
}

export interface NewItem {
  name: string;
  kind: ExchangeKind;
  description?: string;
  /** VIP days or coins granted (those kinds only). */
  value?: number;
  costCoins: number;
  /** Limited stock (not for code items: their stock is their codes). */
  stock?: number;
  perUserLimit?: number;
}

/**
 * 新建商品 on the exchange page (already open): fills the drawer, puts the item on sale
 * (`beforeSave` runs with the drawer filled), saves; answers the item's id.
 */
export async function createItem(page: Page, item: NewItem, beforeSave?: () => Promise<void>) {
  await page.getByRole('button', { name: '新建商品' }).click();
  const drawer = page.getByRole('dialog', { name: '新建兑换商品' });
  await drawer.getByLabel('商品名称').fill(item.name);
  if (item.description) await drawer.getByLabel('商品说明').fill(item.description);
  if (item.kind !== 'vip_days') {
    const label = exchangeKinds.find((k) => k.value === item.kind)?.label as string;
    await drawer.getByLabel('商品类型').click();
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`).click();
  }
  if (item.value !== undefined) {
    await drawer.getByLabel(item.kind === 'vip_days' ? '会员天数' : '发放金币').fill(String(item.value));
  }
  await drawer.getByLabel('所需金币').fill(String(item.costCoins));
  if (item.stock !== undefined) await drawer.getByLabel('库存', { exact: true }).fill(String(item.stock));
  if (item.perUserLimit !== undefined) await drawer.getByLabel('每人限兑').fill(String(item.perUserLimit));
  await drawer.getByRole('switch', { name: '上架' }).click();
  await beforeSave?.();
  const notice = noticeShown(page, '兑换商品已创建');
  const made = page.waitForResponse((r) => r.url().endsWith('/api/exchange/item/make'));
  await drawer.getByRole('button', { name: '保存' }).click();
  const answer = (await (await made).json()) as { code: number; data?: { item: { id: number } } };
  expect(answer.code).toBe(200);
  await notice;
  await expect(drawer).toBeHidden();
  // The notice would cover 新建商品 for the next item.
  await noticesClosed(page);
  await expect(page.locator('tr.ant-table-row:visible', { hasText: item.name })).toContainText('已上架');
  return answer.data?.item.id as number;
}

/** 导入兑换码 on an item's row: pastes the codes, one a line (`beforeImport` runs with the modal filled), imports. */
export async function importCodes(page: Page, itemName: string, codes: string[], beforeImport?: () => Promise<void>) {
  await page
    .locator('tr.ant-table-row:visible', { hasText: itemName })
    .getByRole('button', { name: '导入兑换码' })
    .click();
  const modal = page.getByRole('dialog', { name: `导入兑换码：${itemName}` });
  await modal.getByLabel('兑换码').fill(codes.join('\n'));
  await expect(modal.getByText(`已粘贴 ${codes.length} 个`)).toBeVisible();
  await beforeImport?.();
  await modal.getByRole('button', { name: '导入' }).click();
  await expect(page.getByText(`已导入 ${codes.length} 个兑换码`)).toBeVisible();
  await expect(modal).toBeHidden();
}
