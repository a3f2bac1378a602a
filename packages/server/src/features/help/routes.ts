import { renderMarkdown } from '../../core/markdown';
import { countedTotal, shanghaiTime } from '../../db/paging';
import { appScope, mustReach, mustSee, scoped } from '../../http/app-scope';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { presentArticle, presentArticleRow, presentPublished } from './presenter';
import { categoriesOf, filteredArticles, insertArticle, loadArticle, orderedArticles, updateArticle } from './queries';

/** What the operation log keeps of an article: everything but the rendered HTML. */
const logged = ({ html: _html, ...article }: ReturnType<typeof presentArticle>) => article;

async function setPublished(ctx: SignedInContext, id: number, published: boolean) {
  const before = await loadArticle(ctx.db, id);
  await mustReach(ctx, before.app);
  const after = await updateArticle(ctx.db, id, { published });
  await ctx.audit({ targetId: id, before: { published: before.published === 1 }, after: { published } });
  return { article: presentArticle(after) };
}

const articleList = pagedRoute('/api/help/fetch/page', {
  rows: (input, ctx) => orderedArticles(ctx.db, scoped(ctx, input)).selectAll(),
  total: (input, ctx) => countedTotal(ctx.db, filteredArticles(ctx.db, scoped(ctx, input)), input.exactTotal),
  present: (rows) => rows.map(presentArticleRow),
});

export default defineRoutes({
  '/api/help/make': {
    transaction: true,
    message: '帮助文章已创建',
    handler: async (input, ctx) => {
      const article = presentArticle(await insertArticle(ctx.db, input, ctx.user.id));
      await ctx.audit({ targetId: article.id, after: logged(article) });
      return { article };
    },
  },

  '/api/help/update': {
    transaction: true,
    message: '帮助文章已保存',
    handler: async (input, ctx) => {
      const { id, ...changes } = input;
      if (Object.values(changes).every((v) => v === undefined)) throw fail.badInput('请至少修改一项');
      const current = await loadArticle(ctx.db, id);
      await mustReach(ctx, current.app);
      const before = presentArticle(current);
      const after = presentArticle(await updateArticle(ctx.db, id, changes));
      const fields = Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined);
      const pick = (a: typeof before) => Object.fromEntries(fields.map((f) => [f, a[f as keyof typeof a]]));
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      return { article: after };
    },
  },

  '/api/help/publish': {
    transaction: true,
    message: '已发布，App 中可以看到这篇文章',
    handler: (input, ctx) => setPublished(ctx, input.id, true),
  },

  '/api/help/unpublish': {
    transaction: true,
    message: '已下线，App 中不再显示这篇文章',
    handler: (input, ctx) => setPublished(ctx, input.id, false),
  },

  '/api/help/remove': {
    transaction: true,
    message: '帮助文章已删除',
    handler: async (input, ctx) => {
      const current = await loadArticle(ctx.db, input.id);
      await mustReach(ctx, current.app);
      const before = presentArticle(current);
      await ctx.db.deleteFrom('help_articles').where('id', '=', input.id).execute();
      await ctx.audit({ targetId: input.id, before: logged(before) });
      return null;
    },
  },

  '/api/help/fetch/page': articleList,
  '/api/help/export': listExport(articleList, (ctx) => ({
    filename: '帮助文章',
    columns: [
      { header: 'ID', width: 10, cell: (a) => a.id },
      { header: '应用', width: 12, cell: (a) => ctx.apps.nameOf(a.app) },
      { header: '分类', width: 14, cell: (a) => a.category },
      { header: '标题', width: 36, cell: (a) => a.title },
      { header: '摘要', width: 50, cell: (a) => a.excerpt },
      { header: '排序', width: 8, cell: (a) => a.sort },
      { header: '已发布', width: 8, cell: (a) => yesNo(a.published) },
      { header: '更新时间', width: 18, cell: (a) => shanghaiTime(a.updatedAt) },
    ],
  })),

  '/api/help/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadArticle(ctx.db, input.id);
      mustSee(ctx, row.app, '帮助文章不存在');
      return { article: presentArticle(row) };
    },
  },

  '/api/help/fetch/categories': {
    handler: async (input, ctx) => ({ list: await categoriesOf(ctx.db, { apps: appScope(ctx, input.app) }) }),
  },

  // The same renderer as saving, so the preview is exactly what readers will get.
  '/api/help/preview': {
    handler: async (input) => ({ html: renderMarkdown(input.content) }),
  },

  '/api/help/fetch/published': {
    handler: async (input, ctx) => {
      const [rows, categories] = await Promise.all([
        filteredArticles(ctx.db, { apps: [input.app], category: input.category, published: true, search: '' })
          .selectAll()
          .orderBy('category')
          .orderBy('sort')
          .orderBy('id')
          .limit(1000)
          .execute(),
        categoriesOf(ctx.db, { apps: [input.app], publishedOnly: true }),
      ]);
      const list = rows.map((row) => {
        const { html: _html, ...article } = presentPublished(row);
        return { ...article, excerpt: presentArticleRow(row).excerpt };
      });
      return { list, categories };
    },
  },

  '/api/help/fetch/article': {
    handler: async (input, ctx) => {
      const row = await loadArticle(ctx.db, input.id);
      // An unpublished article does not exist for the apps.
      if (row.published !== 1) throw fail.notFound('帮助文章不存在');
      return { article: presentPublished(row) };
    },
  },
});
