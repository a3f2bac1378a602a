import { readFileSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, confirmPop, expectNotice } from '@appdesk/e2e/support';
import { expect, type Locator, type Page } from '@playwright/test';

const logo = readFileSync(path.resolve(import.meta.dirname, '../../../../../../e2e/fixtures/logo.png'));

/** A claim as the app sends it: the screenshot and the store as multipart form data. */
export async function claimReview(token: string, store: string) {
  const form = new FormData();
  form.append('store', JSON.stringify(store));
  form.append('screenshot', new Blob([logo]), 'review.png');
  const answer = await fetch(`${baseUrl}/api/reviewreward/make`, { method: 'POST', headers: { token }, body: form });
  return (await answer.json()) as { code: number; data?: { claim: { id: number } } };
}

/** 通过 on a pending claim's row, confirmed: the set coins are paid. */
export async function approveClaim(page: Page, row: Locator) {
  await row.getByRole('button', { name: '通过' }).click();
  await expectNotice(page, '已通过，金币已发放', () => confirmPop(page, '通过'));
}

/**
 * 驳回 on a pending claim's row with a reason: one of the usual ones is picked from the list
 * (`typed` false) or the reason is typed. `beforeConfirm` runs with the modal filled.
 */
export async function rejectClaim(
  page: Page,
  row: Locator,
  reason: string,
  { typed = false, beforeConfirm }: { typed?: boolean; beforeConfirm?: () => Promise<void> } = {},
) {
  await row.getByRole('button', { name: '驳回' }).click();
  const modal = page.getByRole('dialog', { name: '驳回好评奖励' });
  if (typed) {
    await modal.getByLabel('驳回原因').fill(reason);
    // Tab closes the list of usual reasons, which would otherwise cover the buttons.
    await modal.getByLabel('驳回原因').press('Tab');
    await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  } else {
    await modal.getByLabel('驳回原因').click();
    await page.locator('.ant-select-item-option', { hasText: reason }).click();
  }
  await expect(modal.getByLabel('驳回原因')).toHaveValue(reason);
  await beforeConfirm?.();
  await expectNotice(page, '已驳回，用户会收到站内消息', () => modal.getByRole('button', { name: '驳回' }).click());
  await expect(modal).toBeHidden();
}
