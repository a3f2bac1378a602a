import { iso } from '../../db/paging';
import { appScope } from '../../http/app-scope';
import type { NoticeSource } from '../../http/context';
import { type Todo, todoFigures } from './queries';

/** How the bell words each of the dashboard's to-dos, and where it is done. */
const todoNotices: Record<
  Todo,
  { type: 'feedback' | 'review' | 'exchange'; title: string; unit: string; link: string }
> = {
  feedbackPending: {
    type: 'feedback',
    title: '意见反馈待处理',
    unit: '条反馈等待回复或处理',
    link: '/admin/admin/feedback?status=pending',
  },
  reviewRewardsPending: {
    type: 'review',
    title: '好评奖励待审核',
    unit: '张评价截图等待审核',
    link: '/admin/admin/reviewreward?status=pending',
  },
  exchangesWaiting: {
    type: 'exchange',
    title: '兑换待发货',
    unit: '件实物兑换等待发货',
    link: '/admin/admin/exchangerecord?status=waiting',
  },
};

/**
 * The header bell's to-dos: one notice per to-do of the dashboard that has any, with the same
 * count as its card (both from todoFigures; of the apps in the operator's scope), dated by its oldest item, linking to the list it opens.
 */
const dashboardTodoNotices: NoticeSource = async (ctx) => {
  const figures = await todoFigures(ctx.db, appScope(ctx));
  return (Object.keys(todoNotices) as Todo[])
    .filter((todo) => figures[todo].count > 0)
    .map((todo) => {
      const { count, oldest } = figures[todo];
      const notice = todoNotices[todo];
      return {
        id: `todo-${todo}`,
        type: notice.type,
        title: notice.title,
        description: `${count} ${notice.unit}`,
        datetime: iso(oldest ?? Date.now()),
        link: notice.link,
        count,
      };
    });
};
export default dashboardTodoNotices;
