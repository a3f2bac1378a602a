import { confirmPop, ensureSiteReady, expectNotice, signInAdmin } from '@appdesk/e2e/support';
import { expect, type Page, test } from '@playwright/test';

/**
 * Help articles end to end: an operator writes and publishes an article full of script, and
 * nothing of it runs in the editor's live preview, in the list, or where an app shows the HTML
 * the API answers.
 */
test.describe.configure({ mode: 'serial' });

const hostile = [
  '# 安全说明',
  '<img src=x onerror=alert(1)>',
  '<script>alert(2)</script>',
  '[点我](javascript:alert(3))',
  '<svg onload=alert(4)><circle r="5"/></svg>',
  '正文里的 **加粗文字**。',
].join('\n\n');

/** Every dialog a page opens (alert, confirm), answered at once so the page goes on. */
function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (dialog) => {
    opened.push(dialog.message());
    void dialog.dismiss();
  });
  return opened;
}

test('an operator publishes an article with script in it, and nothing runs anywhere', async ({ page, browser }) => {
  const dialogs = watchDialogs(page);
  await ensureSiteReady();
  await signInAdmin(page);
  const title = `安全说明 ${Date.now()}`;

  await page.goto('/admin/admin/help');
  await page.getByRole('button', { name: '新建文章' }).click();
  const drawer = page.getByRole('dialog', { name: '新建文章' });
  await drawer.getByLabel('标题').fill(title);
  await drawer.getByLabel('分类').fill('安全');
  await drawer.getByLabel('正文（Markdown）').fill(hostile);
  // The live preview is the server's sanitised HTML: the safe parts render, the rest is gone.
  await expect(drawer.locator('.help-article strong')).toHaveText('加粗文字');
  await expect(drawer.locator('.help-article h1')).toHaveText('安全说明');
  expect(await drawer.locator('.help-article').innerHTML()).not.toMatch(
    /onerror|onload|<script|<svg|href="javascript/i,
  );
  await drawer.getByRole('switch').click();
  await expectNotice(page, '帮助文章已创建', () => drawer.getByRole('button', { name: '保存' }).click());

  const row = page.locator('.ant-table-row', { hasText: title });
  await expect(row).toBeVisible();
  await expect(row.getByText('已发布')).toBeVisible();
  await expect(row).toContainText('加粗文字');
  // Opening it again loads the saved article into the editor and its preview.
  await row.getByRole('button', { name: '编辑' }).click();
  const editor = page.getByRole('dialog', { name: '编辑文章' });
  await expect(editor.getByLabel('标题')).toHaveValue(title);
  await expect(editor.locator('.help-article strong')).toHaveText('加粗文字');
  await editor.getByRole('button', { name: '取消' }).click();

  // What an app receives, opened as a page with no CSP at all: only sanitising protects it.
  const listed = await page.request.post('/api/help/fetch/published', { data: { app: 'tailor', category: '安全' } });
  const { list } = (await listed.json()).data as { list: { id: number; title: string }[] };
  const id = list.find((a) => a.title === title)?.id;
  expect(id).toBeDefined();
  const fetched = await page.request.post('/api/help/fetch/article', { data: { id } });
  const { html } = (await fetched.json()).data.article as { html: string };
  const app = await browser.newPage();
  const appDialogs = watchDialogs(app);
  // The check itself can see script run: unsanitised markup opens a dialog here.
  await app.setContent('<img src="x" onerror="alert(0)">');
  await expect.poll(() => appDialogs.length).toBe(1);
  await app.setContent(`<!doctype html><meta charset="utf-8"><body>${html}</body>`);
  await expect(app.locator('strong')).toHaveText('加粗文字');
  await app.waitForTimeout(500);
  expect(appDialogs).toEqual(['0']);
  await app.close();

  // Unpublishing hides it from the apps at once.
  await row.getByRole('button', { name: '下线' }).click();
  await confirmPop(page, '下线');
  await expect(row.getByText('未发布')).toBeVisible();
  const hidden = await page.request.post('/api/help/fetch/article', { data: { id } });
  expect((await hidden.json()).code).toBe(404);

  // The operation log names what happened in Chinese.
  await page.goto('/admin/admin/audit');
  await expect(page.getByText('新建帮助文章').first()).toBeVisible();
  await expect(page.getByText('下线帮助文章').first()).toBeVisible();
  expect(dialogs).toEqual([]);
});
