import { z } from 'zod';
import { auditTarget, endpoint } from '../endpoint';
import {
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
 * The image library (图片管理, spec route `unsplash`): wallpapers, stickers and backgrounds the
 * apps show. Each upload is one image; the server reads its size and makes a WebP thumbnail.
 */
const target = auditTarget('image', '图片', 'unsplash', {
  url: { label: '文件', format: 'file' },
  thumbUrl: { label: '缩略图', format: 'file' },
});
const category = textField(rules.category);
const tags = z
  .array(textField(rules.tag), { error: '标签必须是字符串数组' })
  .max(10, { error: '标签最多 10 个' })
  .transform((list) => [...new Set(list)])
  .meta({ title: '标签' });
const enabled = z.boolean({ error: '是否启用必须是布尔值' }).meta({ title: '是否启用' });
const ids = z
  .array(id, { error: '图片 ID 列表必须是数组' })
  .min(1, { error: '请至少选择一张图片' })
  .max(500, { error: '一次最多操作 500 张图片' })
  .meta({ title: '图片 ID 列表' });

/** An image as operators manage it. */
export const imageView = z.object({
  id,
  name: z.string().meta({ title: '名称', description: '默认取上传时的文件名' }),
  url: z.string().meta({ title: '原图地址' }),
  thumbUrl: z.string().meta({ title: '缩略图地址', description: 'WebP，最长边 480 像素' }),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int().meta({ title: '字节数' }),
  mime: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  author: z.string(),
  sourceUrl: z.string(),
  sort: z.number().int(),
  enabled: z.boolean(),
  fileId: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** An enabled image as the apps show it. */
export const appImage = imageView.pick({
  id: true,
  name: true,
  url: true,
  thumbUrl: true,
  width: true,
  height: true,
  category: true,
  tags: true,
  author: true,
  sourceUrl: true,
});

const details = {
  category: category.default(''),
  tags: tags.default([]),
  author: textField(rules.author).default(''),
  sourceUrl: textField(rules.sourceUrl).default(''),
  sort: integerField(rules.sort).default(0),
  enabled: enabled.default(true),
};

const unsplashPage = endpoint({
  access: 'admin',
  permission: 'unsplash.read',
  summary: '分页查询图片库（分类、标签、启用状态、名称搜索）',
  input: z.object({
    page,
    size,
    exactTotal,
    category: category.optional(),
    tag: textField(rules.tag).optional(),
    enabled: enabled.optional(),
    search,
    sort: sortBy(['createdAt', 'sort', 'size']),
    order,
  }),
  output: paged(imageView),
});

export const unsplashEndpoints = {
  '/api/unsplash/make': endpoint({
    access: 'admin',
    permission: 'unsplash.edit',
    summary:
      '上传一张图片到图片库（字段 file；其余字段为分类、标签、作者、来源、排序、是否启用）；已有相同文件（SHA-256）时不再保存，答复已有的那张（duplicate 为 true）',
    input: z.object(details),
    output: z.object({ image: imageView, duplicate: z.boolean() }),
    upload: { field: 'file', kind: 'image', media: true },
    audit: { action: 'unsplash.make', label: '上传图片', target },
  }),
  '/api/unsplash/update': endpoint({
    access: 'admin',
    permission: 'unsplash.edit',
    summary: '修改图片信息（只改传入的字段）',
    input: z.object({
      id: id.meta({ title: '图片 ID' }),
      name: textField(rules.mediaName).optional(),
      category: category.optional(),
      tags: tags.optional(),
      author: textField(rules.author).optional(),
      sourceUrl: textField(rules.sourceUrl).optional(),
      sort: integerField(rules.sort).optional(),
      enabled: enabled.optional(),
    }),
    output: z.object({ image: imageView }),
    example: { id: 1, tags: ['风景', '蓝色'], author: '摄影师小王' },
    audit: { action: 'unsplash.update', label: '修改图片', target },
  }),
  '/api/unsplash/enable': endpoint({
    access: 'admin',
    permission: 'unsplash.edit',
    summary: '批量启用图片（App 中可见）',
    input: z.object({ ids }),
    output: z.object({ changed: z.number().int() }),
    example: { ids: [1] },
    audit: { action: 'unsplash.enable', label: '启用图片', target },
  }),
  '/api/unsplash/disable': endpoint({
    access: 'admin',
    permission: 'unsplash.edit',
    summary: '批量停用图片（App 中不再显示）',
    input: z.object({ ids }),
    output: z.object({ changed: z.number().int() }),
    example: { ids: [1] },
    audit: { action: 'unsplash.disable', label: '停用图片', target },
  }),
  '/api/unsplash/move': endpoint({
    access: 'admin',
    permission: 'unsplash.edit',
    summary: '批量移动图片到分类',
    input: z.object({ ids, category }),
    output: z.object({ changed: z.number().int() }),
    example: { ids: [1], category: '壁纸' },
    audit: { action: 'unsplash.move', label: '移动图片分类', target },
  }),
  '/api/unsplash/fetch/page': unsplashPage,
  '/api/unsplash/export': listExport(unsplashPage, '图片'),
  '/api/unsplash/fetch/categories': endpoint({
    access: 'admin',
    permission: 'unsplash.read',
    summary: '图片库用到的分类（含图片数）与标签',
    input: z.object({}),
    output: z.object({
      categories: z.array(z.object({ name: z.string(), count: z.number().int() })),
      tags: z.array(z.string()),
    }),
  }),
  '/api/unsplash/fetch/list': endpoint({
    access: 'public',
    summary: 'App：某分类已启用的图片，分页，最新在前或按排序值；含缩略图与原图地址',
    input: z.object({
      category: category.optional(),
      page,
      size: size.refine((n) => n <= 100, { error: '每页条数最多 100' }),
      order: z
        .enum(['newest', 'sort'], { error: '排序只能是 newest 或 sort' })
        .default('newest')
        .meta({ title: '排序' }),
    }),
    output: z.object({ list: z.array(appImage), page: z.number().int(), hasMore: z.boolean() }),
    example: { category: '壁纸', page: 0, size: 20, order: 'newest' },
  }),
  '/api/unsplash/remove': endpoint({
    access: 'admin',
    permission: 'unsplash.edit',
    summary: '批量删除图片（连同原图与缩略图文件）',
    input: z.object({ ids }),
    output: z.object({ changed: z.number().int() }),
    example: { ids: [1] },
    audit: { action: 'unsplash.remove', label: '删除图片', target },
  }),
};

export default unsplashEndpoints;
type UnsplashEndpoints = typeof unsplashEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends UnsplashEndpoints {}
}
