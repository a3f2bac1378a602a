import { expectNotice } from '@appdesk/e2e/support';
import { expect, type Locator, type Page } from '@playwright/test';

/** 发货 on a waiting record's row: carrier and tracking number, confirmed; the user is messaged. */
export async function shipRecord(
  page: Page,
  row: Locator,
  carrier: string,
  trackingNo: string,
  beforeConfirm?: () => Promise<void>,
) {
  await row.getByRole('button', { name: '发货' }).click();
  const ship = page.getByRole('dialog', { name: '发货' });
  await ship.getByLabel('快递公司').fill(carrier);
  await ship.getByLabel('快递单号').fill(trackingNo);
  await beforeConfirm?.();
  await expectNotice(page, '已发货，用户会收到发货通知', () => ship.getByRole('button', { name: '确认发货' }).click());
  await expect(ship).toBeHidden();
}

/**
 * Picks a user in a UserPicker (the form item labelled `label` in `scope`) by typing `search` (a
 * phone, a fragment of one, a nickname) and choosing the option that holds `shown`.
 */
export async function pickUser(page: Page, scope: Locator, label: string, search: string, shown: string) {
  await scope.getByLabel(label).fill(search);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: shown }).click();
}
