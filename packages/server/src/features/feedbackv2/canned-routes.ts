import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import { iso } from '../../db/paging';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import type { FeedbackCannedTable } from './tables';

/** Canned replies (快捷回复): short templates operators pick when answering a thread. */
const present = (row: Selectable<FeedbackCannedTable>) => ({
  id: row.id,
  title: row.title,
  content: row.content,
  updatedAt: iso(Number(row.updated_at)),
});

async function loadCanned(db: Db, id: number) {
  const row = await db.selectFrom('feedback_canned').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('快捷回复不存在');
  return present(row);
}

export default defineRoutes({
  '/api/feedbackv2/canned/fetch': {
    handler: async (_input, ctx) => {
      const rows = await ctx.db.selectFrom('feedback_canned').selectAll().orderBy('id').limit(500).execute();
      return { list: rows.map(present) };
    },
  },

  '/api/feedbackv2/canned/make': {
    transaction: true,
    message: '快捷回复已保存',
    handler: async (input, ctx) => {
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('feedback_canned')
        .values({
          title: input.title,
          content: input.content,
          author_id: ctx.user.id,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const canned = await loadCanned(ctx.db, id);
      await ctx.audit({ targetId: id, after: canned });
      return { canned };
    },
  },

  '/api/feedbackv2/canned/update': {
    transaction: true,
    message: '快捷回复已保存',
    handler: async (input, ctx) => {
      const before = await loadCanned(ctx.db, input.id);
      await ctx.db
        .updateTable('feedback_canned')
        .set({ title: input.title, content: input.content, updated_at: Date.now() })
        .where('id', '=', input.id)
        .execute();
      const canned = await loadCanned(ctx.db, input.id);
      await ctx.audit({ targetId: input.id, before, after: canned });
      return { canned };
    },
  },

  '/api/feedbackv2/canned/remove': {
    transaction: true,
    message: '快捷回复已删除',
    handler: async (input, ctx) => {
      const before = await loadCanned(ctx.db, input.id);
      await ctx.db.deleteFrom('feedback_canned').where('id', '=', input.id).execute();
      await ctx.audit({ targetId: input.id, before });
      return null;
    },
  },
});
