import { createHash, randomInt } from 'node:crypto';
import { createApiClient } from '@appdesk/contract/client';
import type { ApiInput, ApiPath } from '@appdesk/contract/types';
import { expect, type Locator, type Page } from '@playwright/test';
import { screenshotsInto } from './shots';

/**
 * What every end-to-end test shares, here and in the pages' own `*.e2e.ts`: the server's
 * address, the first admin, the typed API client, and the steps that set a test up.
 */
export const baseUrl = `http://127.0.0.1:${process.env.E2E_PORT ?? 8931}`;
export const admin = { phone: '13800000000', password: 'Admin12345' };
export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const client = createApiClient({ baseUrl });

/**
 * A phone no other test of this run holds: `prefix` and random digits to 11. Specs run side by side,
 * and phones made from the clock met in the same millisecond; registering a taken phone with the
 * shared test password signs its owner in, so a clash silently shares one account between specs.
 */
export const freshPhone = (prefix = '13') =>
  prefix + String(randomInt(10 ** (11 - prefix.length))).padStart(11 - prefix.length, '0');

/** One typed call, as an app makes it (token empty when signed out); answers the envelope. */
export const api = <P extends ApiPath>(path: P, body?: ApiInput<P>, token = '') => client.call(path, body, { token });

/** Sets the site up with the first admin unless an earlier test already has. */
export async function ensureSiteReady() {
  const fetched = await api('/api/allocation/fetch');
  if (fetched.data?.allocation.isInit) return;
  const init = await api('/api/allocation/init', {
    phone: admin.phone,
    password: sha256(admin.password),
    title: '滚动截屏',
    slogen: '长截图，一键完成',
  });
  expect(init.code).toBe(200);
}

/** Signs in through the login page; done once the page has moved on (admins to the console, others home). */
export async function signIn(page: Page, phone = admin.phone, password = admin.password) {
  await page.goto('/user/login');
  await page.getByLabel('手机号').fill(phone);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).not.toHaveURL(/\/user\/login$/);
}

/**
 * Signs in a second administrator of the spec's own, for a spec that walks many pages for minutes.
 * Every other spec signs the first admin in again (a new session each time) and an account keeps
 * only its newest 10 sessions, so a long walk as the first admin was signed out halfway.
 */
export async function signInOwnAdmin(page: Page) {
  await ensureSiteReady();
  const password = 'Walker12345';
  const phone = freshPhone('135');
  const registered = await api('/api/users/register', { phone, password: sha256(password), app: 'tailor' });
  expect(registered.code).toBe(200);
  const id = registered.data?.user.id as number;
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  await makeSuperAdmin(id, login.data?.token as string);
  await signIn(page, phone, password);
  await expect(page).toHaveURL(/\/admin\/admin\//);
}

/**
 * Makes an account an operator holding 超级管理员 (设为管理员 alone gives an operator no role), as
 * the first admin whose token is given.
 */
export async function makeSuperAdmin(id: number, adminToken: string) {
  const granted = await api('/api/users/update/admin', { id, isAdmin: true }, adminToken);
  expect([granted.code, granted.message]).toEqual([200, granted.message]);
  const roles = await api('/api/operators/fetch/roles', {}, adminToken);
  const superRole = roles.data?.list.find((r) => r.builtin === 'super');
  expect(superRole).toBeDefined();
  const given = await api('/api/operators/update', { id, roleIds: [superRole?.id as number] }, adminToken);
  expect([given.code, given.message]).toEqual([200, given.message]);
}

/** Signs the first admin in and waits for the console. */
export async function signInAdmin(page: Page) {
  await signIn(page);
  await expect(page).toHaveURL(/\/admin\/admin\//);
}

/**
 * Starts watching for the success notice `text`; await the answer after the action that shows it. A
 * success notice stays 1.5 s (spec); on a loaded machine each of Playwright's polls is a round trip
 * that can take longer than that, and CI missed a notice the page did show. So the page itself
 * watches too: an observer of its DOM sees the text the moment it is added, however briefly it
 * stays. Polling stays as the other way to see it (an observer does not survive a navigation).
 */
export function noticeShown(page: Page, text: string): Promise<void> {
  const timeout = 15_000;
  const seenByObserver = page.evaluate(
    ({ wanted, ms }) =>
      new Promise<void>((resolve, reject) => {
        const holds = (node: Node) => node.textContent?.includes(wanted) ?? false;
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            if ((record.type === 'characterData' && holds(record.target)) || [...record.addedNodes].some(holds)) {
              observer.disconnect();
              clearTimeout(timer);
              resolve();
              return;
            }
          }
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`${ms} ms 内页面上没有出现“${wanted}”`));
        }, ms);
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      }),
    { wanted: text, ms: timeout },
  );
  const seenByPolling = page.getByText(text).first().waitFor({ state: 'visible', timeout });
  return Promise.any([seenByObserver, seenByPolling]).catch((error: AggregateError) => {
    throw error.errors.at(-1);
  });
}

/** Does `action` and waits for the success notice `text` it shows (see `noticeShown`). */
export async function expectNotice(page: Page, text: string, action: () => Promise<unknown>) {
  const shown = noticeShown(page, text);
  await action();
  await shown;
}

/**
 * Waits for the notices (top right) to close. One under the pointer stays while hovered, and the
 * pointer that clicked a drawer's or header's button is often there: it is moved away first.
 */
export async function noticesClosed(page: Page) {
  await page.mouse.move(300, 600);
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
}

/** Confirms the open Popconfirm with its OK button and waits until the action has finished. */

export async function confirmPop(page: Page, ok: string) {
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: ok, exact: true }).click();
  await expect(page.locator('.ant-popconfirm:visible')).toHaveCount(0);
}

/** Full-page pictures at the console's two widths (1366 and 390 px), when SCREENSHOT_DIR asks for them. */
export async function shoot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (dir) await screenshotsInto(page, dir, name);
}

/**
 * The cell of `row` under the column headed `header`: found by its heading, since a selection or
 * expand column a page gains moves every index.
 */
export async function cellOf(row: Locator, header: string): Promise<Locator> {
  await expect(row).toBeVisible();
  const table = row.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ant-table-container ")][1]');
  const headings = (await table.locator('thead th').allInnerTexts()).map((text) => text.trim());
  const index = headings.indexOf(header);
  expect(index, `column ${header} among ${headings.join('、')}`).toBeGreaterThanOrEqual(0);
  return row.locator('td').nth(index);
}
