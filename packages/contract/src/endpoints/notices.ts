import { z } from 'zod';
import { endpoint } from '../endpoint';
import { empty, isoTime } from '../fields';
import { ANY_OPERATOR } from '../permissions';

/**
 * A header-bell notice: the operator's to-dos (the dashboard's pending feedback, reviews and
 * shipments, one notice each with its count), feedback threads with new posts, and unread messages
 * from others. The client uses each notice's type (spec 4); the badge is the sum of the counts.
 */
export const notice = z.object({
  id: z.string(),
  /** feedback: 意见反馈; thread: 反馈工单 (feedback v2); review: 好评审核; exchange: 兑换发货. */
  type: z.enum(['message', 'feedback', 'thread', 'review', 'exchange', 'system']),
  title: z.string(),
  description: z.string(),
  datetime: isoTime,
  /** Admin console path that handles the notice. */
  link: z.string().nullable(),
  /** How many items the notice stands for: a to-do's count (the dashboard's figure), else 1. */
  count: z.number().int(),
});
export type Notice = z.infer<typeof notice>;

export const noticeEndpoints = {
  '/api/notices/fetch': endpoint({
    access: 'admin',
    permission: ANY_OPERATOR,
    summary: '读取管理后台的待办通知',
    input: empty,
    output: z.array(notice),
  }),
};

export default noticeEndpoints;
type NoticeEndpoints = typeof noticeEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends NoticeEndpoints {}
}
