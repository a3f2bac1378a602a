import type { Notice } from '@appdesk/contract';
import type { RequestContext } from '../../http/context';
import { defineRoutes } from '../../http/route';
import { unreadMessageNotices } from '../message/routes';

/**
 * Each feature that has something waiting for an operator adds a source here (pending
 * feedback, review rewards, undelivered exchanges, unread messages) as it lands.
 */
export type NoticeSource = (ctx: RequestContext) => Promise<Notice[]>;
const sources: NoticeSource[] = [unreadMessageNotices];

export const noticeRoutes = defineRoutes({
  '/api/notices/fetch': {
    handler: async (_input, ctx) => {
      const lists = await Promise.all(sources.map((source) => source(ctx)));
      return lists.flat().sort((a, b) => b.datetime.localeCompare(a.datetime));
    },
  },
});
