import { countedTotal, shanghaiTime } from '../../db/paging';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { filteredSounds, loadSound, orderedSounds, presentSound, soundBySha, soundCategories } from './queries';

const nameOf = (fileName: string) =>
  Array.from(fileName.replace(/\.[^.]*$/, '') || fileName)
    .slice(0, 60)
    .join('');

const soundList = pagedRoute('/api/soundeffect/fetch/page', {
  rows: (input, ctx) => orderedSounds(ctx.db, input),
  total: (input, ctx) => countedTotal(ctx.db, filteredSounds(ctx.db, input), input.exactTotal),
  present: (rows) => rows.map(presentSound),
});

export default defineRoutes({
  '/api/soundeffect/make': {
    handler: async (input, ctx) => {
      const file = ctx.file;
      if (!file?.id || file.media?.kind !== 'audio') throw fail.badInput('缺少上传的音频（字段名 file）');
      // The same bytes again: keep nothing new and answer the sound that has them.
      const existing = await soundBySha(ctx.db, file.sha256);
      if (existing) {
        ctx.releaseFile(file.url);
        const sound = presentSound(existing);
        await ctx.audit({ targetId: existing.id, after: { duplicateOf: existing.id, name: file.name } });
        return { sound, duplicate: true };
      }
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('sound_effects')
        .values({
          file_id: file.id,
          file_key: file.key,
          sha256: file.sha256,
          name: input.name ?? nameOf(file.name),
          category: input.category,
          duration_ms: file.media.durationMs,
          codec: file.media.codec,
          sample_rate: file.media.sampleRate,
          mime: file.mime,
          size: file.size,
          sort: input.sort,
          enabled: input.enabled ? 1 : 0,
          uploader_id: ctx.user.id,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const sound = presentSound(await loadSound(ctx.db, id));
      await ctx.audit({ targetId: id, after: sound });
      return { sound, duplicate: false };
    },
  },

  '/api/soundeffect/update': {
    transaction: true,
    message: '音效已保存',
    handler: async (input, ctx) => {
      const { id, enabled, ...rest } = input;
      const changes = { ...rest, ...(enabled === undefined ? {} : { enabled: enabled ? 1 : 0 }) };
      if (Object.values(changes).every((v) => v === undefined)) throw fail.badInput('请至少修改一项');
      const before = presentSound(await loadSound(ctx.db, id));
      await ctx.db
        .updateTable('sound_effects')
        .set({ ...changes, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
      const after = presentSound(await loadSound(ctx.db, id));
      const fields = Object.keys(input).filter((k) => k !== 'id' && input[k as keyof typeof input] !== undefined);
      const pick = (s: typeof before) => Object.fromEntries(fields.map((f) => [f, s[f as keyof typeof s]]));
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      return { sound: after };
    },
  },

  '/api/soundeffect/remove': {
    transaction: true,
    message: '音效已删除',
    handler: async (input, ctx) => {
      const before = presentSound(await loadSound(ctx.db, input.id));
      await ctx.db.deleteFrom('sound_effects').where('id', '=', input.id).execute();
      ctx.releaseFile(before.url);
      await ctx.audit({ targetId: input.id, before });
      return null;
    },
  },

  '/api/soundeffect/fetch/page': soundList,
  '/api/soundeffect/export': listExport(soundList, {
    filename: '音效',
    columns: [
      { header: 'ID', width: 10, cell: (s) => s.id },
      { header: '名称', width: 24, cell: (s) => s.name },
      { header: '分类', width: 14, cell: (s) => s.category },
      { header: '时长（毫秒）', width: 12, cell: (s) => s.durationMs },
      { header: '编码', width: 18, cell: (s) => s.codec },
      { header: '字节数', width: 12, cell: (s) => s.size },
      { header: '排序', width: 8, cell: (s) => s.sort },
      { header: '启用', width: 8, cell: (s) => yesNo(s.enabled) },
      { header: '播放地址', width: 36, cell: (s) => s.url },
      { header: '创建时间', width: 18, cell: (s) => shanghaiTime(s.createdAt) },
    ],
  }),

  '/api/soundeffect/fetch/categories': {
    handler: async (_input, ctx) => ({ categories: await soundCategories(ctx.db) }),
  },

  '/api/soundeffect/fetch/list': {
    handler: async (input, ctx) => {
      const rows = await filteredSounds(ctx.db, { category: input.category, enabled: true, search: '' })
        .selectAll()
        .orderBy('sort')
        .orderBy('id')
        .limit(1000)
        .execute();
      return {
        list: rows.map((row) => {
          const { id, name, url, category, durationMs, mime } = presentSound(row);
          return { id, name, url, category, durationMs, mime };
        }),
      };
    },
  },
});
