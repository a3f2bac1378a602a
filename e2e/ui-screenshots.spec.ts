import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { adminKeys } from './adminPages';
import { admin, api, ensureSiteReady, sha256, signInOwnAdmin } from './support';

/**
 * Screenshots of every page (issue 12, done-when 4): the public pages and every admin page of the
 * page folders' declarations, at 1366 px and 390 px, light and dark, written under the run's output
 * folder (e2e/test-results/screenshots) for a person to look at. Fast on purpose: one signed-in
 * page, one load per page, the theme switched in place, no fixed waits. A little data is seeded
 * first so the lists are not all empty. Alongside the pictures, english.json lists every Latin
 * word left on a page's screen (none expected beyond names such as QQ, VIP or iOS).
 */

/** Public pages; the front layout's (home, legal) have no dark variant. */
const publicPages = [
  { name: 'home', url: '/', dark: false },
  { name: 'legal-agreement', url: '/legal/agreement', dark: false },
  { name: 'legal-privacy', url: '/legal/privacy', dark: false },
  { name: 'login', url: '/user/login', dark: true },
  { name: 'exception-404', url: '/exception/404', dark: true },
  { name: 'email-validate', url: '/email/validate', dark: true },
];
const widths = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;
type Scheme = 'light' | 'dark';

// Latin words that are names, not untranslated text.
const allowedLatin =
  /^(QQ|VIP|ID|IP|iOS|Android|iPhone|iPad|App|APP|Apple|Google|Play|Store|AppStore|HarmonyOS|HUAWEI|Mate|Markdown|URL|Key|ICP|SVIP|Alipay|WeChat|Pay|MB|KB|GB|MD5|SHA|JSON|CSV|Excel|IAP|SDK|UA|Unsplash|tailor|xiaomi|huawei|oppo|vivo|honor|other|appstore|googleplay|feature|long_shot|false|true|boolean|string|number|json|http|https|www|com|example|cn|png|jpg|apk|ipa)$/;

let shotsDir = '';
const english: Record<string, string[]> = {};

async function frames(page: Page) {
  // Two animation frames: a resize or theme change has been laid out and painted.
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

async function settled(page: Page, adminPage: boolean) {
  await expect(page.locator('#root .boot')).toHaveCount(0);
  if (adminPage) await expect(page.locator('.admin-page:visible > *').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible')).toHaveCount(0, {
    timeout: 20_000,
  });
}

/** The theme switched in place, as another browser tab's choice arrives (components/theme.ts). */
async function setScheme(page: Page, scheme: Scheme) {
  await page.evaluate((next) => {
    localStorage.setItem('appdesk.theme', next);
    window.dispatchEvent(new StorageEvent('storage', { key: 'appdesk.theme' }));
  }, scheme);
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
}

async function latinWords(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const words = (text.match(/[A-Za-z][A-Za-z_.-]*[A-Za-z]/g) ?? []).filter((w) => !allowedLatin.test(w));
  return [...new Set(words)];
}

async function shoot(page: Page, name: string, width: number, scheme: Scheme) {
  // No hover highlight from the last click.
  await page.mouse.move(0, (page.viewportSize()?.height ?? 800) - 1);
  await page.screenshot({
    path: path.join(shotsDir, `${name}-${width}-${scheme}.png`),
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
  });
}

/** One load, then 1366 and 390 px in the scheme the page is in, then the other scheme back at 1366. */
async function shootAll(page: Page, name: string, schemes: Scheme[], adminPage: boolean) {
  await settled(page, adminPage);
  const found = new Set(await latinWords(page));
  for (const [i, scheme] of schemes.entries()) {
    if (i > 0) await setScheme(page, scheme);
    // Alternate the widths' order so the viewport changes once per scheme, not twice.
    const order = i % 2 === 0 ? widths : [...widths].reverse();
    for (const size of order) {
      if (page.viewportSize()?.width !== size.width) {
        await page.setViewportSize(size);
        await frames(page);
        await settled(page, adminPage);
      }
      if (size.width === 390) for (const w of await latinWords(page)) found.add(w);
      await shoot(page, name, size.width, scheme);
    }
  }
  if (found.size) english[name] = [...found];
}

type Example = Record<string, unknown>;
async function example(feature: string, apiPath: string): Promise<Example> {
  const table = (await import(`../packages/contract/src/endpoints/${feature}.ts`)).default as Record<
    string,
    { example?: Example }
  >;
  return { ...(table[apiPath]?.example ?? {}) };
}

/** A little of everything, so lists show rows: users with Chinese names, their feedback, ledger rows, config. */
async function seed() {
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const token = login.data?.token as string;
  const stamp = String(Date.now()).slice(-7);
  const names = ['董艳', '王小明', '陈静', '刘洋的橘子'];
  for (const [i, nickname] of names.entries()) {
    const phone = `170${stamp}${i}`;
    const registered = await api('/api/users/register', {
      phone,
      password: sha256('User12345'),
      app: 'tailor',
      channel: (['huawei', 'xiaomi', 'oppo', 'vivo'] as const)[i],
    });
    expect(registered.code, registered.message).toBe(200);
    const userToken = registered.data?.token as string;
    await api('/api/users/update/info', { nickname }, userToken);
    const userId = registered.data?.user.id as number;
    await api('/api/users/update/coins', { id: userId, delta: 100 * (i + 1), reason: '截图用的活动奖励' }, token);
    if (i < 2) {
      const fb = await example('feedback', '/api/feedback/make');
      await api('/api/feedback/make', fb as never, userToken);
      const ticket = await example('feedbackv2', '/api/feedbackv2/make');
      await api('/api/feedbackv2/make', ticket as never, userToken);
    }
  }
  const admins: [string, string, Example?][] = [
    ['message', '/api/message/make'],
    ['a11t', '/api/a11t/make', { key: `shots.flag_${stamp}` }],
    ['help', '/api/help/make', { title: `截图示例文章 ${stamp}` }],
    ['plan', '/api/plan/make'],
    ['iap', '/api/iap/make'],
    ['exchange', '/api/exchange/item/make'],
    ['selfapp', '/api/selfapp/make'],
    ['feedbackv2', '/api/feedbackv2/canned/make'],
  ];
  for (const [feature, apiPath, extra] of admins) {
    const body = { ...(await example(feature, apiPath)), ...extra };
    await api(apiPath as never, body as never, token);
  }
}

test.describe.configure({ mode: 'serial' });

test('screenshots of every page at 1366 and 390 px, light and dark', async ({ page }, info) => {
  // ~120 pictures: about a minute on an idle machine, several when the machine is shared.
  test.setTimeout(600_000);
  shotsDir = path.join(info.project.outputDir, 'screenshots');
  mkdirSync(shotsDir, { recursive: true });
  await ensureSiteReady();
  await seed();

  await page.setViewportSize(widths[0]);
  for (const p of publicPages) {
    await page.goto(p.url);
    await shootAll(page, p.name, p.dark ? ['light', 'dark'] : ['light'], false);
    if (p.dark) await setScheme(page, 'light');
  }

  await signInOwnAdmin(page);
  let scheme: Scheme = 'light';
  await setScheme(page, scheme);
  // Only the home tab and the page shown: the tab bar is the same on every picture.
  await page.evaluate(() => sessionStorage.clear());
  await page.goto(`/admin/admin/${adminKeys[0]}`);
  let previous: string | undefined;
  const timings: Record<string, number> = {};
  for (const key of adminKeys) {
    const started = Date.now();
    if (key !== adminKeys[0]) {
      // In-app navigation, as the menu does it (one boot for all the pages).
      await page.evaluate((url) => {
        window.history.pushState(null, '', url);
        window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
      }, `/admin/admin/${key}`);
    }
    await expect(page.locator(`.admin-tabs-head .admin-tab-active[data-node-key="${key}"]`)).toHaveCount(1);
    if (previous && previous !== adminKeys[0]) {
      const closing = page.locator(`.admin-tabs-head .admin-tab[data-node-key="${previous}"]`);
      await closing.locator('.admin-tab-close').click();
      await expect(closing).toHaveCount(0);
    }
    const other: Scheme = scheme === 'light' ? 'dark' : 'light';
    await shootAll(page, `admin-${key}`, [scheme, other], true);
    scheme = other;
    previous = key;
    timings[key] = Date.now() - started;
  }
  console.log(`per admin page (ms): ${JSON.stringify(timings)}`);
  writeFileSync(path.join(shotsDir, 'english.json'), JSON.stringify(english, null, 1));
  console.log(`screenshots: ${shotsDir}; Latin words on screen: ${JSON.stringify(english)}`);
});
