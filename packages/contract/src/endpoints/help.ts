import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  exactTotal,
  id,
  integerField,
  isoTime,
  listExport,
  order,
  page,
  paged,
  search,
  size,
  sortBy,
  textField,
} from '../fields';
import { rules } from '../rules';

/**
 * Help articles (帮助文档): Markdown written by operators, rendered and sanitised on the server,
 * read by the apps by category.
 */
const target = auditTarget('help', '帮助文章', 'help', { content: '正文' });
const articleId = z.object({ id: id.meta({ title: '文章 ID' }) });
const published = z.boolean({ error: '是否发布必须是布尔值' }).meta({ title: '是否发布' });
const category = textField(rules.category);

/** An article as operators manage it: the Markdown source and the HTML every reader gets. */
export const helpArticle = z.object({
  id,
  app: z.string(),
  title: z.string(),
  category: z.string(),
  sort: z.number().int(),
  published: z.boolean(),
  content: z.string(),
  /** Sanitised HTML of `content`: what the admin preview, the list and the apps show. */
  html: z.string(),
  authorId: z.number().int().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** A line of the operators' list: no body, a plain-text excerpt instead. */
export const helpArticleRow = helpArticle.omit({ content: true, html: true }).extend({ excerpt: z.string() });

/** A published article as an app shows it. */
export const publishedArticle = z.object({
  id,
  app: z.string(),
  title: z.string(),
  category: z.string(),
  sort: z.number().int(),
  html: z.string(),
  updatedAt: isoTime,
});

const example = {
  app: 'tailor',
  title: '如何导出长截图',
  category: '常见问题',
  sort: 10,
  published: true,
  content: '## 步骤\n\n1. 打开滚动截屏\n2. 滑动到需要的位置\n3. 点击 **导出**，图片会保存到相册',
} as const;

const helpPage = endpoint({
  access: 'admin',
  permission: 'help.read',
  summary: '分页查询帮助文章（应用、分类、发布状态、标题搜索）',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    category: category.optional(),
    published: published.optional(),
    search,
    sort: sortBy(['sort', 'updatedAt', 'createdAt']),
    order,
  }),
  output: paged(helpArticleRow),
});

const singleEndpoints = {
  '/api/help/make': endpoint({
    access: 'admin',
    permission: 'help.edit',
    summary: '新建帮助文章',
    input: z.object({
      app: appCode.default('tailor'),
      title: textField(rules.title),
      category: category.default(''),
      sort: integerField(rules.sort).default(0),
      published: published.default(false),
      content: textField(rules.markdown).default(''),
    }),
    output: z.object({ article: helpArticle }),
    example,
    audit: { action: 'help.make', label: '新建帮助文章', target },
  }),
  '/api/help/update': endpoint({
    access: 'admin',
    permission: 'help.edit',
    summary: '修改帮助文章（只改传入的字段）',
    input: articleId.extend({
      app: appCode.optional(),
      title: textField(rules.title).optional(),
      category: category.optional(),
      sort: integerField(rules.sort).optional(),
      content: textField(rules.markdown).optional(),
    }),
    output: z.object({ article: helpArticle }),
    example: { id: 1, title: '如何导出长截图（已更新）' },
    audit: { action: 'help.update', label: '修改帮助文章', target },
  }),
  '/api/help/unpublish': endpoint({
    access: 'admin',
    permission: 'help.publish',
    summary: '下线帮助文章（App 中不再显示）',
    input: articleId,
    output: z.object({ article: helpArticle }),
    example: { id: 1 },
    audit: { action: 'help.unpublish', label: '下线帮助文章', target },
  }),
  '/api/help/publish': endpoint({
    access: 'admin',
    permission: 'help.publish',
    summary: '发布帮助文章（App 中可见）',
    input: articleId,
    output: z.object({ article: helpArticle }),
    example: { id: 1 },
    audit: { action: 'help.publish', label: '发布帮助文章', target },
  }),
  '/api/help/fetch/page': helpPage,
  '/api/help/export': listExport(helpPage, '帮助文章'),
  '/api/help/fetch/detail': endpoint({
    access: 'admin',
    permission: 'help.read',
    summary: '读取一篇帮助文章（含 Markdown 原文）',
    input: articleId,
    output: z.object({ article: helpArticle }),
    example: { id: 1 },
  }),
  '/api/help/fetch/categories': endpoint({
    access: 'admin',
    permission: 'help.read',
    summary: '已用过的分类（编辑时候选）',
    input: z.object({ app: appCode.optional() }),
    output: z.object({ list: z.array(z.string()) }),
  }),
  '/api/help/preview': endpoint({
    access: 'admin',
    permission: 'help.read',
    summary: '预览：把 Markdown 渲染成与 App 所见相同的安全 HTML',
    input: z.object({ content: textField(rules.markdown) }),
    output: z.object({ html: z.string() }),
    example: { content: example.content },
  }),
  '/api/help/fetch/published': endpoint({
    access: 'public',
    summary: 'App：某个应用已发布的帮助文章（可按分类筛选），按分类、排序值排列',
    input: z.object({ app: appCode, category: category.optional() }),
    output: z.object({
      list: z.array(publishedArticle.omit({ html: true }).extend({ excerpt: z.string() })),
      categories: z.array(z.string()),
    }),
    example: { app: 'tailor', category: '常见问题' },
  }),
  '/api/help/fetch/article': endpoint({
    access: 'public',
    summary: 'App：读取一篇已发布的帮助文章（安全 HTML）',
    input: articleId,
    output: z.object({ article: publishedArticle }),
    example: { id: 1 },
  }),
  '/api/help/remove': endpoint({
    access: 'admin',
    permission: 'help.edit',
    summary: '删除帮助文章',
    input: articleId,
    output: z.null(),
    example: { id: 1 },
    audit: { action: 'help.remove', label: '删除帮助文章', target },
  }),
};

export const helpEndpoints = {
  ...singleEndpoints,
  '/api/help/publish/batch': batchEndpoint('/api/help/publish', singleEndpoints['/api/help/publish'], {
    summary: '批量发布帮助文章',
    example: { ids: [1] },
  }),
  '/api/help/unpublish/batch': batchEndpoint('/api/help/unpublish', singleEndpoints['/api/help/unpublish'], {
    summary: '批量下线帮助文章',
    example: { ids: [1] },
  }),
};

export default helpEndpoints;
type HelpEndpoints = typeof helpEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends HelpEndpoints {}
}
