import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';

/** Finder upload (spec 7 and 8): any accepted image, audio or package, answered in `data`. */
export default defineRoutes({
  '/api/finder/single': {
    message: '上传成功',
    handler: async (_input, ctx) => {
      const file = ctx.file;
      if (!file?.id) throw fail.badInput('缺少上传文件（字段名 file）');
      const view = {
        id: file.id,
        url: file.url,
        key: file.key,
        name: file.name,
        size: file.size,
        sha256: file.sha256,
        mime: file.mime,
        kind: file.kind,
      };
      await ctx.audit({ targetId: file.id, after: view });
      return view;
    },
  },
});
