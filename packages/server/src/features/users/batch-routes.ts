import { sendMessage } from '../../core/messages';
import { isoOrNull } from '../../db/paging';
import { reaches } from '../../http/app-scope';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import { blockEnd, forgetSoonestBlock } from './blocks';

/**
 * The existing users among `ids` (a batch may name ones that are gone), in id order; for an
 * operator limited to some apps, only accounts of those apps (or of no app), as the list shows.
 */
async function existingIds(ctx: RequestContext, ids: number[]): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('users')
    .select(['id', 'app'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return rows
    .filter((r) => reaches(ctx, r.app))
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

/** Batch actions on the users selected in the list: one transaction and one operation-log row each. */
export default defineRoutes({
  '/api/users/block/batch': {
    transaction: true,
    message: '已批量封禁，所选用户已被强制下线',
    handler: async (input, ctx) => {
      const blockedUntil = blockEnd(input.until);
      // The operator's own account is skipped: an operator never locks themself out.
      const ids = (await existingIds(ctx, input.ids)).filter((id) => id !== ctx.user.id);
      if (ids.length === 0) throw fail.badInput('所选用户中没有可以封禁的账号（不能封禁自己）');
      await ctx.db
        .updateTable('users')
        .set({ status: 'blocked', blocked_until: blockedUntil, updated_at: Date.now() })
        .where('id', 'in', ids)
        .execute();
      if (blockedUntil !== null) forgetSoonestBlock();
      await ctx.db.deleteFrom('sessions').where('user_id', 'in', ids).execute();
      await ctx.audit({
        after: { ids, count: ids.length, blockedUntil: isoOrNull(blockedUntil), reason: input.reason },
      });
      return { count: ids.length };
    },
  },

  '/api/users/unblock/batch': {
    transaction: true,
    message: '已批量解除封禁',
    handler: async (input, ctx) => {
      const ids = await existingIds(ctx, input.ids);
      if (ids.length === 0) throw fail.notFound('所选用户不存在');
      await ctx.db
        .updateTable('users')
        .set({ status: 'normal', blocked_until: null, updated_at: Date.now() })
        .where('id', 'in', ids)
        .execute();
      await ctx.audit({ after: { ids, count: ids.length, reason: input.reason } });
      return { count: ids.length };
    },
  },

  '/api/users/message/batch': {
    transaction: true,
    message: '消息已发送',
    handler: async (input, ctx) => {
      const ids = await existingIds(ctx, input.ids);
      if (ids.length === 0) throw fail.notFound('所选用户不存在');
      for (const userId of ids) {
        await sendMessage(ctx.db, { userId, title: input.title, content: input.content, authorId: ctx.user.id });
      }
      await ctx.audit({ after: { ids, count: ids.length, title: input.title } });
      return { count: ids.length };
    },
  },
});
