import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { threadAssignees, threadCategories, threadStatuses } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  choice,
  empty,
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
  timeRange,
  worded,
} from '../fields';
import { rules, valuesOf } from '../rules';
import { deviceFields, feedbackImage, imageIds, imageTokens } from './feedback';

/**
 * Feedback threads (反馈会话, feedback v2): a signed-in user opens a conversation in a category,
 * both sides post text and images, the user's app counts replies not yet read, operators see
 * threads with unread posts in the header bell, assign them, answer with canned replies, close.
 * A user only ever sees their own threads: another user's answers 404, as if it did not exist.
 */
const target = auditTarget(
  'feedbackv2',
  '反馈会话',
  { key: 'feedbackv2', open: 'thread={id}' },
  { adminReadPostId: '已读到的消息 ID' },
);
const cannedTarget = auditTarget('feedbackv2.canned', '快捷回复', 'feedbackv2');
const threadId = z.object({ id: id.meta({ title: '会话 ID' }) });
const category = choice('分类', threadCategories);
const status = choice('会话状态', threadStatuses);
const postBody = {
  content: textField(rules.feedbackContent),
  images: imageIds.default([]),
  imageTokens: imageTokens.default([]),
};

export const threadPost = z.object({
  id,
  /** Who wrote it: the user, or an operator (named for operators only). */
  from: worded(z.enum(['user', 'admin']), [
    { value: 'user', label: '用户' },
    { value: 'admin', label: '客服' },
  ]).meta({ title: '发言方' }),
  author: z.string(),
  content: z.string(),
  images: z.array(feedbackImage),
  createdAt: isoTime,
});

/** A thread as its user's app lists it. */
export const myThread = z.object({
  id,
  app: z.string(),
  category,
  status,
  subject: z.string(),
  /** Operators' posts since the user last opened the thread. */
  unread: z.number().int(),
  lastPostAt: isoTime,
  createdAt: isoTime,
});

/** A line of the operators' list. */
export const threadRow = myThread.omit({ unread: true }).extend({
  userId: z.number().int(),
  user: z.string(),
  /** The user posted since an operator last read or answered. */
  unread: z.boolean(),
  assigneeId: z.number().int().nullable(),
  assignee: z.string().nullable(),
  version: z.string(),
  deviceModel: z.string(),
  osVersion: z.string(),
});

export const cannedReply = z.object({ id, title: z.string(), content: z.string(), updatedAt: isoTime });

const threadAnswer = z.object({ thread: threadRow, posts: z.array(threadPost) });
const cannedFields = { title: textField(rules.cannedTitle), content: textField(rules.feedbackReply) };

const feedbackv2Page = endpoint({
  access: 'admin',
  permission: 'feedbackv2.read',
  summary: '分页查询反馈会话（状态、分类、应用、负责人、最后留言时间、内容搜索）',
  input: timeRange.extend({
    page,
    size,
    exactTotal,
    status: status.optional(),
    category: category.optional(),
    app: appCode.optional(),
    assignee: worded(z.enum(valuesOf(threadAssignees), { error: '负责人只能是 me 或 none' }), threadAssignees)
      .optional()
      .meta({ title: '负责人', description: 'me 我负责的，none 未分配' }),
    unread: z.boolean({ error: '未读必须是布尔值' }).optional().meta({ title: '只看未读' }),
    search,
    sort: sortBy(['lastPostAt', 'createdAt']),
    order,
  }),
  output: paged(threadRow),
});

const singleEndpoints = {
  '/api/feedbackv2/make': endpoint({
    access: 'user',
    summary: 'App：发起反馈会话（分类、内容、最多 4 张图片）',
    input: z.object({
      app: appCode,
      category,
      ...postBody,
      version: deviceFields.version,
      deviceModel: deviceFields.deviceModel,
      osVersion: deviceFields.osVersion,
    }),
    output: z.object({ thread: myThread }),
    example: { app: 'tailor', category: 'payment', content: '开通会员扣款成功但仍显示未开通', version: '2.3.1' },
  }),
  '/api/feedbackv2/post': endpoint({
    access: 'user',
    summary: 'App：在自己的会话里继续留言（已关闭的会话会重新打开）',
    input: threadId.extend(postBody),
    output: z.object({ thread: myThread }),
    example: { id: 1, content: '补充：订单号 202611230001' },
  }),
  '/api/feedbackv2/fetch/mine': endpoint({
    access: 'user',
    summary: 'App：我的反馈会话，最近有消息的在前，含未读回复数与未读合计',
    input: z.object({ page, size }),
    output: paged(myThread).extend({ unreadTotal: z.number().int() }),
  }),
  '/api/feedbackv2/fetch/thread': endpoint({
    access: 'user',
    summary: 'App：打开自己的一个会话（全部留言），并把回复记为已读',
    input: threadId,
    output: z.object({ thread: myThread, posts: z.array(threadPost) }),
    example: { id: 1 },
  }),
  '/api/feedbackv2/fetch/page': feedbackv2Page,
  '/api/feedbackv2/export': listExport(feedbackv2Page, '反馈工单'),
  '/api/feedbackv2/fetch/detail': endpoint({
    access: 'admin',
    permission: 'feedbackv2.read',
    summary: '读取一个反馈会话的全部留言',
    input: threadId,
    output: threadAnswer,
    example: { id: 1 },
  }),
  '/api/feedbackv2/fetch/operators': endpoint({
    access: 'admin',
    permission: 'feedbackv2.read',
    summary: '可分配会话的管理员',
    input: empty,
    output: z.object({ list: z.array(z.object({ id, name: z.string() })) }),
  }),
  '/api/feedbackv2/read': endpoint({
    access: 'admin',
    permission: 'feedbackv2.reply',
    summary: '把会话里用户的新留言记为管理员已读（不再出现在通知里）',
    input: threadId,
    output: threadAnswer,
    example: { id: 1 },
    audit: { action: 'feedbackv2.read', label: '查看反馈会话', target },
  }),
  '/api/feedbackv2/reply': endpoint({
    access: 'admin',
    permission: 'feedbackv2.reply',
    summary: '回复反馈会话（文字与图片）；会话变为已回复，用户的 App 显示未读',
    input: threadId.extend({
      content: textField(rules.feedbackReply),
      images: imageIds.default([]),
      cannedId: id.optional().meta({ title: '快捷回复 ID', description: '用了哪条快捷回复（只记录）' }),
    }),
    output: threadAnswer,
    example: { id: 1, content: '您好，已为您补开会员，请重启 App 查看。' },
    audit: { action: 'feedbackv2.reply', label: '回复反馈会话', target },
  }),
  '/api/feedbackv2/assign': endpoint({
    access: 'admin',
    permission: 'feedbackv2.reply',
    summary: '把会话分配给一位管理员（null 取消分配）',
    input: threadId.extend({ assigneeId: id.nullable().meta({ title: '负责人 ID' }) }),
    output: threadAnswer,
    example: { id: 1, assigneeId: 1 },
    audit: { action: 'feedbackv2.assign', label: '分配反馈会话', target },
  }),
  '/api/feedbackv2/close': endpoint({
    access: 'admin',
    permission: 'feedbackv2.reply',
    summary: '关闭反馈会话（用户再次留言会重新打开）',
    input: threadId,
    output: threadAnswer,
    example: { id: 1 },
    audit: { action: 'feedbackv2.close', label: '关闭反馈会话', target },
  }),
  '/api/feedbackv2/canned/fetch': endpoint({
    access: 'admin',
    permission: 'feedbackv2.read',
    summary: '全部快捷回复模板',
    input: empty,
    output: z.object({ list: z.array(cannedReply) }),
  }),
  '/api/feedbackv2/canned/make': endpoint({
    access: 'admin',
    permission: 'feedbackv2.canned',
    summary: '新建快捷回复模板',
    input: z.object(cannedFields),
    output: z.object({ canned: cannedReply }),
    example: { title: '已修复请更新', content: '感谢反馈！该问题已在最新版本修复，请更新后再试。' },
    audit: { action: 'feedbackv2.canned.make', label: '新建快捷回复', target: cannedTarget },
  }),
  '/api/feedbackv2/canned/update': endpoint({
    access: 'admin',
    permission: 'feedbackv2.canned',
    summary: '修改快捷回复模板',
    input: z.object({ id: id.meta({ title: '模板 ID' }), ...cannedFields }),
    output: z.object({ canned: cannedReply }),
    example: { id: 1, title: '已修复请更新', content: '感谢反馈！该问题已在 2.3.2 版本修复，请更新后再试。' },
    audit: { action: 'feedbackv2.canned.update', label: '修改快捷回复', target: cannedTarget },
  }),
  '/api/feedbackv2/canned/remove': endpoint({
    access: 'admin',
    permission: 'feedbackv2.canned',
    summary: '删除快捷回复模板',
    input: z.object({ id: id.meta({ title: '模板 ID' }) }),
    output: z.null(),
    example: { id: 1 },
    audit: { action: 'feedbackv2.canned.remove', label: '删除快捷回复', target: cannedTarget },
  }),
};

export const feedbackv2Endpoints = {
  ...singleEndpoints,
  '/api/feedbackv2/close/batch': batchEndpoint('/api/feedbackv2/close', singleEndpoints['/api/feedbackv2/close'], {
    summary: '批量关闭反馈会话',
    example: { ids: [1] },
  }),
  '/api/feedbackv2/reply/batch': batchEndpoint('/api/feedbackv2/reply', singleEndpoints['/api/feedbackv2/reply'], {
    summary: '批量回复反馈会话（同一段文字，如快捷回复）',
    params: {
      content: textField(rules.feedbackReply),
      cannedId: id.optional().meta({ title: '快捷回复 ID', description: '用了哪条快捷回复（只记录）' }),
    },
    example: { ids: [1], content: '您好，问题已处理，请更新到最新版本。' },
  }),
};

export default feedbackv2Endpoints;
type Feedbackv2Endpoints = typeof feedbackv2Endpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends Feedbackv2Endpoints {}
}
