import { countedTotal, pageAnswer, pageOf } from '../../db/paging';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import { filteredFiles, loadFile, orderedFiles, presentFile, presentRows } from './queries';
import { usesOf } from './uses';

/** This call's upload (route.ts has recorded its row), as uploads answer it. */
function uploadedView(ctx: RequestContext) {
  if (!ctx.file?.id) throw fail.badInput('缺少上传文件（字段名 file）');
  return presentFile({ ...ctx.file, id: ctx.file.id });
}

export default defineRoutes({
  '/api/files/update': {
    message: '上传成功',
    handler: async (_input, ctx) => {
      const fileV = uploadedView(ctx);
      await ctx.audit({ targetId: fileV.id, after: fileV });
      return { file: { fileV } };
    },
  },

  '/api/files/fetch/page': {
    handler: async (input, ctx) => {
      const { rows, ...total } = await pageOf(
        orderedFiles(ctx.db, input),
        countedTotal(ctx.db, filteredFiles(ctx.db, input), input.exactTotal),
        input.page,
        input.size,
      );
      return pageAnswer(await presentRows(ctx.db, rows), total, input.page, input.size);
    },
  },

  '/api/files/remove': {
    message: '文件已删除',
    handler: async (input, ctx) => {
      const before = await ctx.inTransaction(async (tx) => {
        const file = presentFile(await loadFile(tx.db, input.id));
        const uses = (await usesOf(tx.db, [file])).get(file.id) ?? [];
        if (uses.length > 0) throw fail.conflict(`文件仍被使用（${uses.join('、')}），不能删除`);
        await tx.db.deleteFrom('files').where('id', '=', input.id).execute();
        await tx.audit({ targetId: input.id, before: file });
        return file;
      });
      // The bytes go once the row's removal has committed.
      await ctx.storage.remove(before.key);
      return null;
    },
  },
});
