import { threadCategories } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import { iso } from '../../db/paging';
import { appScope, inScope } from '../../http/app-scope';
import type { NoticeSource } from '../../http/context';

/**
 * The header bell: threads whose user wrote since an operator last read or answered them, among
 * those assigned to the signed-in operator or to nobody, in the apps of their scope.
 */
const unreadThreadNotices: NoticeSource = async (ctx) => {
  const apps = appScope(ctx);
  let threads = ctx.db
    .selectFrom('feedback_threads')
    .select(['id', 'subject', 'category', 'last_post_at'])
    .whereRef('last_user_post_id', '>', 'admin_read_post_id')
    .where((eb) => eb.or([eb('assignee_id', 'is', null), eb('assignee_id', '=', ctx.user.id)]));
  // An operator limited to some apps hears only of their threads.
  if (apps) threads = threads.where(inScope('feedback_threads.app', apps));
  const rows = await threads.orderBy('last_post_at', 'desc').limit(50).execute();
  return rows.map((r) => ({
    id: `feedback-thread-${r.id}`,
    type: 'thread' as const,
    title: `反馈会话：${r.subject}`,
    description: `${labelOf(threadCategories, r.category)} · 用户有新留言`,
    datetime: iso(Number(r.last_post_at)),
    link: `/admin/admin/feedbackv2?thread=${r.id}`,
    count: 1,
  }));
};
export default unreadThreadNotices;
