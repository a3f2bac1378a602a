import { z } from 'zod';
import { endpoint } from '../endpoint';
import { empty, isoTime } from '../fields';

/** A header-bell notice; the client uses the list's length and each notice's type (spec 4). */
export const notice = z.object({
  id: z.string(),
  type: z.enum(['message', 'feedback', 'review', 'exchange', 'system']),
  title: z.string(),
  description: z.string(),
  datetime: isoTime,
  /** Admin console path that handles the notice. */
  link: z.string().nullable(),
});
export type Notice = z.infer<typeof notice>;

export const noticeEndpoints = {
  '/api/notices/fetch': endpoint({
    access: 'admin',
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
