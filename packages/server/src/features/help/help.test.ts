import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tableNames } from '../../../test/harness';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const hostile = [
  '# 安全测试',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[a](javascript:alert(1))',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<iframe src="https://example.com"></iframe><form action="/x"><input name="q"></form>',
  '![logo](/files/logo.png)',
].join('\n\n');

const admin = async <T>(path: string, body: unknown) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Article = { id: number; html: string; content: string; published: boolean; title: string; category: string };

describe('help articles', () => {
  it('store the Markdown and serve one sanitised HTML to the preview, the editor and the apps', async () => {
    const { article } = await admin<{ article: Article }>('/api/help/make', {
      title: '安全测试',
      category: '常见问题',
      content: hostile,
      published: true,
    });
    expect(article.content).toBe(hostile);
    // markdown-it leaves a javascript: link as plain text; no attribute may carry one.
    for (const bad of [
      /onerror/i,
      /onload/i,
      /<script/i,
      /="?javascript:/i,
      /<svg/i,
      /<iframe/i,
      /<form/i,
      /<input/i,
    ]) {
      expect(article.html).not.toMatch(bad);
    }
    expect(article.html).toContain('<h1>安全测试</h1>');
    expect(article.html).toContain('<img src="/files/logo.png" alt="logo" />');

    const preview = await admin<{ html: string }>('/api/help/preview', { content: hostile });
    expect(preview.html).toBe(article.html);
    const app = await server.call('/api/help/fetch/article', { id: article.id });
    expect((app.body.data as { article: Article }).article.html).toBe(article.html);
  });

  it('apps see only published articles of their app, by category, in the order operators set', async () => {
    const make = (title: string, category: string, sort: number, published: boolean) =>
      admin<{ article: Article }>('/api/help/make', { title, category, sort, published, content: `# ${title}` });
    const later = await make('第二步', '入门', 20, true);
    const first = await make('第一步', '入门', 10, true);
    const draft = await make('草稿', '入门', 5, false);
    await make('会员说明', '会员', 1, true);

    const byCategory = await server.call('/api/help/fetch/published', { app: 'tailor', category: '入门' });
    const data = byCategory.body.data as { list: { id: number; excerpt: string }[]; categories: string[] };
    expect(data.list.map((a) => a.id)).toEqual([first.article.id, later.article.id]);
    expect(data.list[0].excerpt).toBe('第一步');
    expect(data.categories).toEqual(['会员', '入门', '常见问题']);

    const hidden = await server.call('/api/help/fetch/article', { id: draft.article.id });
    expect(hidden.body.code).toBe(404);
    await admin('/api/help/publish', { id: draft.article.id });
    expect((await server.call('/api/help/fetch/article', { id: draft.article.id })).body.code).toBe(200);
    await admin('/api/help/unpublish', { id: draft.article.id });
    expect((await server.call('/api/help/fetch/article', { id: draft.article.id })).body.code).toBe(404);
  });

  it('update changes only what is sent, renders again, and logs before and after', async () => {
    const { article } = await admin<{ article: Article }>('/api/help/make', { title: '旧标题', content: '旧正文' });
    const { article: updated } = await admin<{ article: Article }>('/api/help/update', {
      id: article.id,
      content: '**新正文**',
    });
    expect(updated.title).toBe('旧标题');
    expect(updated.html).toBe('<p><strong>新正文</strong></p>\n');
    const log = await server.app.services.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'help.update')
      .where('target_id', '=', String(article.id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(log.before ?? '')).toEqual({ content: '旧正文' });
    expect(JSON.parse(log.after ?? '')).toEqual({ content: '**新正文**' });

    const nothing = await server.call('/api/help/update', { id: article.id }, token);
    expect(nothing.body).toMatchObject({ code: 400, message: '请至少修改一项' });
  });

  it('lists filter by publication and search, sort by the hand-set order, and removal is final', async () => {
    const page = await admin<{ list: { title: string; sort: number }[]; total: number }>('/api/help/fetch/page', {
      published: true,
      search: '步',
      sort: 'sort',
      order: 'ascend',
    });
    expect(page.list.map((a) => a.title)).toEqual(['第一步', '第二步']);
    expect(page.total).toBe(2);

    const { article } = await admin<{ article: Article }>('/api/help/make', { title: '要删除的', published: true });
    await admin('/api/help/remove', { id: article.id });
    expect((await server.call('/api/help/fetch/detail', { id: article.id }, token)).body.code).toBe(404);
    expect((await server.call('/api/help/fetch/article', { id: article.id })).body.code).toBe(404);
  });

  it('its table is in the generated tests’ no-changed-row snapshot without being listed anywhere', async () => {
    expect(await tableNames(server)).toContain('help_articles');
  });
});
