import { z } from 'zod';
import { DEFAULT_APP } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  exactTotal,
  id,
  isoTime,
  listExport,
  order,
  page,
  paged,
  search,
  size,
  sortBy,
  textField,
} from '../fields';
import { rules } from '../rules';

export const messageTitle = textField(rules.messageTitle);
export const messageContent = textField(rules.messageContent);
const target = auditTarget('message', '消息', 'message');

/** A message as operators manage it. */
export const adminMessage = z.object({
  id,
  /** The app whose users' inboxes show it. */
  app: z.string(),
  title: z.string(),
  content: z.string(),
  /** null: every user; otherwise the one recipient. */
  userId: z.number().int().nullable(),
  userPhone: z.string().nullable(),
  blocked: z.boolean(),
  authorId: z.number().int().nullable(),
  readCount: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** A message as its recipient sees it. */
export const inboxMessage = z.object({
  id,
  title: z.string(),
  content: z.string(),
  read: z.boolean(),
  createdAt: isoTime,
});
export type InboxMessage = z.infer<typeof inboxMessage>;

const messageId = z.object({ id: id.meta({ title: '消息 ID' }) });
/** The app whose inbox an app's call reads (old clients name none: the first app). */
const inboxApp = appCode.default(DEFAULT_APP);
const inboxMessageId = messageId.extend({ app: inboxApp });

const messagePage = endpoint({
  access: 'admin',
  permission: 'message.read',
  summary: '分页查询已发送的消息',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    search,
    blocked: z.boolean({ error: '屏蔽筛选必须是布尔值' }).optional().meta({ title: '是否屏蔽' }),
    sort: sortBy(['createdAt', 'updatedAt']),
    order,
  }),
  output: paged(adminMessage),
});

export const messageEndpoints = {
  '/api/message/make': endpoint({
    access: 'admin',
    permission: 'message.send',
    summary: '发送站内消息（一个应用的全体用户或指定用户）',
    input: z.object({
      app: appCode.default(DEFAULT_APP),
      title: messageTitle,
      content: messageContent,
      userId: id.nullable().default(null).meta({ title: '接收用户 ID' }),
    }),
    output: z.object({ message: adminMessage }),
    example: { title: '系统维护通知', content: '今晚 22:00 至 23:00 系统维护，期间暂停服务。', userId: null },
    audit: { action: 'message.make', label: '发送消息', target },
  }),
  '/api/message/update': endpoint({
    access: 'admin',
    permission: 'message.send',
    summary: '修改消息（只改传入的标题、内容）',
    input: z.object({
      id: id.meta({ title: '消息 ID' }),
      title: messageTitle.optional(),
      content: messageContent.optional(),
    }),
    output: z.object({ message: adminMessage }),
    example: { id: 1, title: '系统维护通知（已更新）' },
    audit: { action: 'message.update', label: '修改消息', target },
  }),
  '/api/message/fetch/page': messagePage,
  '/api/message/export': listExport(messagePage, '站内消息'),
  '/api/message/block': endpoint({
    access: 'admin',
    permission: 'message.block',
    summary: '屏蔽消息（从用户的列表中消失）',
    input: messageId,
    output: z.object({ message: adminMessage }),
    example: { id: 1 },
    audit: { action: 'message.block', label: '屏蔽消息', target },
  }),
  '/api/message/unblock': endpoint({
    access: 'admin',
    permission: 'message.block',
    summary: '取消屏蔽消息',
    input: messageId,
    output: z.object({ message: adminMessage }),
    example: { id: 1 },
    audit: { action: 'message.unblock', label: '取消屏蔽消息', target },
  }),
  '/api/message/fetch/page/unread': endpoint({
    access: 'user',
    summary: '当前用户在本应用的未读消息（产品请求第 0 页、每页 1024 条）',
    input: z.object({ app: inboxApp, page, size }),
    output: z.object({ list: z.array(inboxMessage), total: z.number().int() }),
    placement: 'root',
  }),
  '/api/message/fetch/page/mine': endpoint({
    access: 'user',
    summary: '当前用户在本应用的全部消息（已读与未读；unreadFirst 时未读在前）',
    input: z.object({
      app: inboxApp,
      page,
      size,
      unreadFirst: z.boolean({ error: '未读在前必须是布尔值' }).default(false).meta({ title: '未读在前' }),
    }),
    output: paged(inboxMessage),
  }),
  '/api/message/read': endpoint({
    access: 'user',
    summary: '标记一条消息为已读',
    input: inboxMessageId,
    example: { id: 1 },
    output: z.null(),
  }),
  '/api/message/unread': endpoint({
    access: 'user',
    summary: '标记一条消息为未读',
    input: inboxMessageId,
    example: { id: 1 },
    output: z.null(),
  }),
  '/api/message/read/all': endpoint({
    access: 'user',
    summary: '本应用的消息全部标记为已读',
    input: z.object({ app: inboxApp }),
    output: z.object({ count: z.number().int() }),
  }),
};

export default messageEndpoints;
type MessageEndpoints = typeof messageEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends MessageEndpoints {}
}
