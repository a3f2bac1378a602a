import { iso } from '../../db/paging';
import { appScope } from '../../http/app-scope';
import type { NoticeSource } from '../../http/context';
import { inboxColumns, unreadBy } from './routes';

/**
 * The signed-in operator's unread messages (never their own broadcasts: unreadBy), as header-bell
 * notices: of every app, or of the apps in their scope.
 */
const unreadMessageNotices: NoticeSource = async (ctx) => {
  const apps = appScope(ctx) ?? (await ctx.apps.all()).map((a) => a.code);
  const rows = await unreadBy(ctx.db, ctx.user, apps).select(inboxColumns).orderBy('m.id', 'desc').limit(50).execute();
  return rows.map((r) => ({
    id: `message-${r.id}`,
    type: 'message' as const,
    title: r.title,
    description: r.content.slice(0, 60),
    datetime: iso(r.created_at),
    link: null,
    count: 1,
  }));
};
export default unreadMessageNotices;
