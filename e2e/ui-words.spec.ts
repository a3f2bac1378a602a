import type { EndpointDef } from '@appdesk/contract';
import a11t from '@appdesk/contract/endpoints/a11t';
import exchange from '@appdesk/contract/endpoints/exchange';
import help from '@appdesk/contract/endpoints/help';
import message from '@appdesk/contract/endpoints/message';
import plan from '@appdesk/contract/endpoints/plan';
import reviewreward from '@appdesk/contract/endpoints/reviewreward';
import selfapp from '@appdesk/contract/endpoints/selfapp';
import users from '@appdesk/contract/endpoints/users';
import version from '@appdesk/contract/endpoints/version';
import vip from '@appdesk/contract/endpoints/vip';
import type { ApiPath } from '@appdesk/contract/types';
import { expect, type Page, test } from '@playwright/test';
import { latinWordsOutside, productWords } from '../packages/server/test/words';
import { adminKeys } from './adminPages';
import { admin, api, baseUrl, ensureSiteReady, freshPhone, sha256, shoot, signInOwnAdmin } from './support';

/**
 * Every word an operator reads is Chinese (issue 27): after a run of writes of many kinds through
 * the API, every admin page and the operation log show no raw code, field name, environment
 * variable, path or English word, on screen or in an accessible name (aria-label, title,
 * placeholder, alt). Latin words pass only from the allow-list: product, store and format names,
 * units, and what this spec itself typed (names, package ids, keys) or the browser reported.
 * The admin pages are read from the page folders' declarations, as ui-accessibility.spec.ts does.
 */

// The API client of this spec is Node's fetch, and its sign-ins' device reads as it reported itself.
const allowed = new Set([...productWords, 'node']);

const typedWords = (value: unknown): void => {
  if (typeof value === 'string') for (const w of latinWordsOutside(value, allowed)) allowed.add(w);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) typedWords(v);
};

// The contract's endpoint table needs Vite's glob import; these are the features the seed writes to.
const endpoints = {
  ...a11t,
  ...exchange,
  ...help,
  ...message,
  ...plan,
  ...reviewreward,
  ...selfapp,
  ...users,
  ...version,
  ...vip,
};
const example = (path: ApiPath) =>
  ((endpoints as Record<string, EndpointDef>)[path]?.example ?? {}) as Record<string, unknown>;

/** Writes of many kinds, each through the API as the console makes it, with the examples' own data. */
async function seed(token: string): Promise<void> {
  const stamp = Date.now() % 1_000_000;
  const call = async (path: ApiPath, body: Record<string, unknown>) => {
    typedWords(body);
    const answer = await api(path, body as never, token);
    expect([path, answer.code, answer.message]).toEqual([path, 200, answer.message]);
    return answer.data as Record<string, unknown>;
  };
  await call('/api/help/make', example('/api/help/make'));
  await call('/api/plan/make', example('/api/plan/make'));
  await call('/api/a11t/make', {
    ...example('/api/a11t/make'),
    key: `words.check_${stamp}`,
    type: 'number',
    value: '3',
  });
  await call('/api/exchange/item/make', example('/api/exchange/item/make'));
  await call('/api/version/make', { ...example('/api/version/make'), versionCode: 1000 + (stamp % 100_000) });
  await call('/api/selfapp/make', example('/api/selfapp/make'));
  await call('/api/message/make', example('/api/message/make'));
  await call('/api/reviewreward/update/settings', example('/api/reviewreward/update/settings'));
  await call('/api/users/generate', { ...example('/api/users/generate'), channel: 'huawei' });
  const phone = freshPhone('139');
  const registered = await api('/api/users/register', { phone, password: sha256('Words12345'), app: 'tailor' });
  const id = (registered.data as { user: { id: number } }).user.id;
  await call('/api/users/update/coins', { id, delta: 100, reason: '活动奖励' });
  await call('/api/vip/update', { ...example('/api/vip/update'), id });
  await call('/api/users/block', { id, reason: '发布违规内容' });
  await call('/api/users/unblock', { id, reason: '申诉通过' });
  await call('/api/users/reset/password', { ...example('/api/users/reset/password'), id });
  // An export with a filter: the log names its status, sort and direction.
  const exported = await fetch(`${baseUrl}/api/users/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ status: 'all', channel: 'huawei', sort: 'coins', order: 'descend' }),
  });
  expect(exported.status).toBe(200);
  await exported.arrayBuffer();
}

type Finding = { where: string; words: string[]; text: string };

/** What the visible page says and what its visible elements are named, each checked against the allow-list. */
async function rawWords(page: Page, where: string): Promise<Finding[]> {
  const texts = await page.evaluate(() => {
    // What browsers reported (前端错误: messages, releases, stacks) is data, not the console's words.
    let text = document.body.innerText;
    for (const e of document.querySelectorAll('.clienterror-message, .clienterror-release, .clienterror-stack, pre'))
      text = text.replace((e as HTMLElement).innerText, '');
    const out: string[] = [document.title, text];
    for (const e of document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
      // A name a screen reader reaches: on a rendered element outside anything hidden from it.
      if (!e.checkVisibility() || e.closest('[aria-hidden="true"], .clienterror-message, .clienterror-sample'))
        continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = e.getAttribute(name);
        if (value) out.push(value);
      }
    }
    return out;
  });
  const findings: Finding[] = [];
  for (const text of texts)
    for (const line of text.split('\n')) {
      // Addresses (a link, a store URL, an e-mail) are values, whatever their letters.
      const values = line.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*|[\w.+-]+@[\w-]+(\.[\w-]+)+/gi, '');
      const words = latinWordsOutside(values, allowed);
      if (words.length) findings.push({ where, words, text: line.slice(0, 120) });
    }
  return findings;
}

/** Every admin page, then the operation log with every row's changes open: what each shows that is not a word. */
async function walk(page: Page, shots: boolean): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const key of adminKeys) {
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`/admin/admin/${key}`);
    await expect(page.locator('#root .boot')).toHaveCount(0);
    await expect(page.locator('.admin-content > *').first()).toBeVisible();
    await expect(page.locator('.admin-spinner, .ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0, {
      timeout: 15_000,
    });
    findings.push(...(await rawWords(page, key)));
    if (shots && ['audit', 'upload', 'order', 'a11t', 'allocation', 'users'].includes(key))
      await shoot(page, `words-${key}`);
  }
  await page.goto('/admin/admin/audit');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  const collapsed = page.locator('.ant-table-row-expand-icon-collapsed');
  for (let n = 0; n < 50 && (await collapsed.count()) > 0; n++) await collapsed.first().click();
  findings.push(...(await rawWords(page, 'audit (expanded)')));
  if (shots) await shoot(page, 'words-audit');
  return findings;
}

test('no page and no operation-log row shows a raw code, field name, path or English word', async ({ page }) => {
  test.setTimeout(480_000);
  await ensureSiteReady();
  await signInOwnAdmin(page);
  // What the browser reports of itself (shown as a sign-in's device).
  for (const w of latinWordsOutside(await page.evaluate(() => navigator.userAgent), allowed)) allowed.add(w);
  expect(adminKeys.length).toBeGreaterThan(20);
  // In the whole suite other specs have stored data first (a site title with a product name, device
  // models, keys and file names they typed): what the pages show before this spec writes is data
  // typed by someone, so only the words its own writes bring are judged.
  for (const finding of await walk(page, false)) for (const word of finding.words) allowed.add(word);
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  await seed(login.data?.token as string);
  const findings = await walk(page, true);
  const unique = [...new Map(findings.map((f) => [`${f.where}|${f.text}`, f])).values()];
  expect(unique, JSON.stringify(unique, null, 1)).toEqual([]);
});
