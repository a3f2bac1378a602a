import { fileView } from '@appdesk/contract/endpoints/files';
import { countedTotal, shanghaiTime } from '../../db/paging';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { listExport, pagedRoute, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { filteredFiles, loadFile, orderedFiles, presentFile, presentRows } from './queries';
import { usesOf } from './uses';

/** This call's upload (route.ts has recorded its row), as uploads answer it. */
function uploadedView(ctx: RequestContext) {
  if (!ctx.file?.id) throw fail.badInput('缺少上传文件（字段名 file）');
  return presentFile({ ...ctx.file, id: ctx.file.id });
}

const filesList = pagedRoute('/api/files/fetch/page', {
  rows: (input, ctx) => orderedFiles(ctx.db, input),
  total: (input, ctx) => countedTotal(ctx.db, filteredFiles(ctx.db, input), input.exactTotal),
  present: (rows, ctx) => presentRows(ctx.db, rows),
});
const kindWord = wordsOf(fileView.shape.kind);

export default defineRoutes({
  '/api/files/update': {
    message: '上传成功',
    handler: async (_input, ctx) => {
      const fileV = uploadedView(ctx);
      await ctx.audit({ targetId: fileV.id, after: fileV });
      return { file: { fileV } };
    },
  },

  '/api/files/fetch/page': filesList,
  '/api/files/export': listExport(filesList, {
    filename: '文件',
    columns: [
      { header: 'ID', width: 10, cell: (f) => f.id },
      { header: '原文件名', width: 30, cell: (f) => f.name },
      { header: '类型', width: 10, cell: (f) => kindWord(f.kind) },
      { header: 'MIME', width: 20, cell: (f) => f.mime },
      { header: '字节数', width: 12, cell: (f) => f.size },
      { header: 'SHA-256', width: 30, cell: (f) => f.sha256 },
      { header: '访问地址', width: 36, cell: (f) => f.url },
      { header: '上传者', width: 20, cell: (f) => f.uploader },
      { header: '上传时间', width: 18, cell: (f) => shanghaiTime(f.createdAt) },
      { header: '被引用处', width: 30, cell: (f) => f.usedBy.join('、') },
    ],
  }),

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
