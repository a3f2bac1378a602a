import { countedTotal, shanghaiTime } from '../../db/paging';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, yesNo } from '../../http/paged';
import { RecentAnswers } from '../../http/recent-answers';
import { defineRoutes } from '../../http/route';
import {
  appImages,
  categoriesAndTags,
  filteredImages,
  imageBySha,
  loadImage,
  loadImages,
  orderedImages,
  presentAppImage,
  presentImage,
  storedTags,
} from './queries';

/** The display name of an upload: its file name without the extension, at most 60 characters. */
const nameOf = (fileName: string) =>
  Array.from(fileName.replace(/\.[^.]*$/, '') || fileName)
    .slice(0, 60)
    .join('');

/** Enables, disables or moves the chosen images in one statement, logged as one operation. */
async function changeMany(
  ctx: SignedInContext,
  ids: number[],
  change: { enabled: number } | { category: string },
): Promise<{ changed: number }> {
  const before = await loadImages(ctx.db, ids);
  await ctx.db
    .updateTable('images')
    .set({ ...change, updated_at: Date.now() })
    .where('id', 'in', ids)
    .execute();
  const field = 'enabled' in change ? 'enabled' : 'category';
  appLists.forget(ctx.config);
  await ctx.audit({
    targetId: ids.length === 1 ? ids[0] : null,
    before: before.map((row) => ({ id: row.id, [field]: row[field] })),
    after: { ids: before.map((row) => row.id), ...change },
  });
  return { changed: before.length };
}

/**
 * The apps' pages of images, kept per server for half a second: the wallpaper screens of every
 * app ask for the same first pages all the time. Writes here drop them at once.
 */
const appLists = new RecentAnswers<{ list: ReturnType<typeof presentAppImage>[]; page: number; hasMore: boolean }>(500);

const imageList = pagedRoute('/api/unsplash/fetch/page', {
  rows: (input, ctx) => orderedImages(ctx.db, input),
  total: (input, ctx) => countedTotal(ctx.db, filteredImages(ctx.db, input), input.exactTotal),
  present: (rows) => rows.map(presentImage),
});

export default defineRoutes({
  '/api/unsplash/make': {
    message: '图片已上传',
    handler: async (input, ctx) => {
      const file = ctx.file;
      if (!file?.id || file.media?.kind !== 'image') throw fail.badInput('缺少上传的图片（字段名 file）');
      // The same bytes again: keep nothing new (neither the file nor its thumbnail) and answer the image that has them.
      const existing = await imageBySha(ctx.db, file.sha256);
      if (existing) {
        ctx.releaseFile(file.url);
        ctx.releaseFile(`/files/${file.media.thumbKey}`);
        const image = presentImage(existing);
        await ctx.audit({ targetId: existing.id, after: { duplicateOf: existing.id, name: file.name } });
        return { image, duplicate: true };
      }
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('images')
        .values({
          file_id: file.id,
          file_key: file.key,
          sha256: file.sha256,
          thumb_key: file.media.thumbKey,
          name: nameOf(file.name),
          width: file.media.width,
          height: file.media.height,
          size: file.size,
          mime: file.mime,
          category: input.category,
          tags: storedTags(input.tags),
          author: input.author,
          source_url: input.sourceUrl,
          sort: input.sort,
          enabled: input.enabled ? 1 : 0,
          uploader_id: ctx.user.id,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const image = presentImage(await loadImage(ctx.db, id));
      appLists.forget(ctx.config);
      await ctx.audit({ targetId: id, after: image });
      return { image, duplicate: false };
    },
  },

  '/api/unsplash/update': {
    transaction: true,
    message: '图片信息已保存',
    handler: async (input, ctx) => {
      const { id, tags, sourceUrl, enabled, ...rest } = input;
      const changes = {
        ...rest,
        ...(tags === undefined ? {} : { tags: storedTags(tags) }),
        ...(sourceUrl === undefined ? {} : { source_url: sourceUrl }),
        ...(enabled === undefined ? {} : { enabled: enabled ? 1 : 0 }),
      };
      if (Object.values(changes).every((v) => v === undefined)) throw fail.badInput('请至少修改一项');
      const before = presentImage(await loadImage(ctx.db, id));
      await ctx.db
        .updateTable('images')
        .set({ ...changes, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
      const after = presentImage(await loadImage(ctx.db, id));
      appLists.forget(ctx.config);
      const fields = Object.keys(input).filter((k) => k !== 'id' && input[k as keyof typeof input] !== undefined);
      const pick = (image: typeof before) => Object.fromEntries(fields.map((f) => [f, image[f as keyof typeof image]]));
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      return { image: after };
    },
  },

  '/api/unsplash/enable': {
    transaction: true,
    message: '已启用，App 中可以看到这些图片',
    handler: (input, ctx) => changeMany(ctx, input.ids, { enabled: 1 }),
  },

  '/api/unsplash/disable': {
    transaction: true,
    message: '已停用，App 中不再显示这些图片',
    handler: (input, ctx) => changeMany(ctx, input.ids, { enabled: 0 }),
  },

  '/api/unsplash/move': {
    transaction: true,
    message: '已移动到新分类',
    handler: (input, ctx) => changeMany(ctx, input.ids, { category: input.category }),
  },

  '/api/unsplash/remove': {
    transaction: true,
    message: '图片已删除',
    handler: async (input, ctx) => {
      const rows = await loadImages(ctx.db, input.ids);
      await ctx.db.deleteFrom('images').where('id', 'in', input.ids).execute();
      appLists.forget(ctx.config);
      // The original and its thumbnail go (with the original's files row) once this has committed.
      for (const row of rows) {
        ctx.releaseFile(`/files/${row.file_key}`);
        ctx.releaseFile(`/files/${row.thumb_key}`);
      }
      await ctx.audit({
        targetId: rows.length === 1 ? rows[0].id : null,
        before: rows.map((row) => ({ id: row.id, name: row.name, category: row.category, fileId: row.file_id })),
      });
      return { changed: rows.length };
    },
  },

  '/api/unsplash/fetch/page': imageList,
  '/api/unsplash/export': listExport(imageList, {
    filename: '图片',
    columns: [
      { header: 'ID', width: 10, cell: (i) => i.id },
      { header: '名称', width: 24, cell: (i) => i.name },
      { header: '分类', width: 14, cell: (i) => i.category },
      { header: '标签', width: 24, cell: (i) => i.tags.join('、') },
      { header: '尺寸', width: 12, cell: (i) => `${i.width}×${i.height}` },
      { header: '字节数', width: 12, cell: (i) => i.size },
      { header: '作者', width: 16, cell: (i) => i.author },
      { header: '排序', width: 8, cell: (i) => i.sort },
      { header: '启用', width: 8, cell: (i) => yesNo(i.enabled) },
      { header: '原图地址', width: 36, cell: (i) => i.url },
      { header: '创建时间', width: 18, cell: (i) => shanghaiTime(i.createdAt) },
    ],
  }),

  '/api/unsplash/fetch/categories': {
    handler: async (_input, ctx) => categoriesAndTags(ctx.db),
  },

  '/api/unsplash/fetch/list': {
    handler: (input, ctx) =>
      appLists.get(ctx.config, `${input.category ?? ''}|${input.order}|${input.page}|${input.size}`, async () => {
        const rows = await appImages(ctx.db, input);
        return {
          list: rows.slice(0, input.size).map(presentAppImage),
          page: input.page,
          hasMore: rows.length > input.size,
        };
      }),
  },
});
