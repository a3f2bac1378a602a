import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { FEEDBACK_MAX_IMAGES, feedbackStatuses } from '../constants';
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
} from '../fields';
import { rules } from '../rules';

/**
 * Feedback (意见反馈 v1): app users, signed in or leaving a contact, send text with up to four
 * images (uploaded first through `/api/feedback/upload`); operators filter, look, mark handled
 * and reply, and a signed-in author gets the reply as an in-app message.
 */
const target = auditTarget('feedback', '意见反馈', 'feedback');
const feedbackId = z.object({ id: id.meta({ title: '反馈 ID' }) });
const status = choice('处理状态', feedbackStatuses);

/** Images a feedback or a reply carries: ids of the caller's own uploads, at most four. */
export const imageIds = z
  .array(id.meta({ title: '图片 ID' }), { error: '图片必须是图片 ID 的数组' })
  .max(FEEDBACK_MAX_IMAGES, { error: `最多上传 ${FEEDBACK_MAX_IMAGES} 张图片` })
  .meta({ title: '图片', description: '先用上传接口上传，再传回答复里的 id；只能用自己上传的图片' });

/** The claim token an upload made signed out answers with: 32 random bytes, base64url. */
const uploadToken = z
  .string({ error: '上传凭证必须是字符串' })
  .regex(/^[\w-]{43}$/, { error: '上传凭证格式不正确（应为上传接口答复里的 token）' })
  .meta({ title: '上传凭证' });

/** Claim tokens of the images a caller not signed in attaches, in any order; signed-in uploads need none. */
export const imageTokens = z
  .array(uploadToken, { error: '上传凭证必须是字符串数组' })
  .max(FEEDBACK_MAX_IMAGES, { error: `最多 ${FEEDBACK_MAX_IMAGES} 个上传凭证` })
  .meta({
    title: '图片上传凭证',
    description: '未登录时上传的图片：传回上传接口答复里的 token（已登录上传的图片不需要）',
  });

/** A stored image as pages and apps show it. */
export const feedbackImage = z.object({ id, url: z.string() });

/** An upload's answer: the image, and the token that lets the uploader attach it while not signed in. */
export const uploadedImage = feedbackImage.extend({
  token: z.string().meta({
    title: '上传凭证',
    description: '只在这次答复里给出一次：未登录提交时放进 imageTokens；服务器只保存它的 SHA-256',
  }),
});

/** What the device says about itself; every field may be empty. */
export const deviceFields = {
  version: textField(rules.appVersionName).default('').meta({ title: '应用版本', description: '例如 2.3.1' }),
  channel: textField({ ...rules.channelName, min: 0 })
    .default('')
    .meta({ description: '安装包的渠道，例如 huawei' }),
  deviceModel: textField(rules.deviceModel).default(''),
  osVersion: textField(rules.osVersion).default(''),
  deviceId: textField(rules.deviceId).meta({ description: '设备上保存的随机 ID，用于频率限制' }),
};

export const feedbackRow = z.object({
  id,
  app: z.string(),
  userId: z.number().int().nullable(),
  /** The author's account, phone masked; empty when not signed in. */
  user: z.string(),
  content: z.string(),
  contact: z.string(),
  images: z.array(feedbackImage),
  version: z.string(),
  channel: z.string(),
  deviceModel: z.string(),
  osVersion: z.string(),
  status,
  reply: z.string().nullable(),
  repliedAt: isoTime.nullable(),
  /** Who replied or marked it handled. */
  handler: z.string().nullable(),
  handledAt: isoTime.nullable(),
  createdAt: isoTime,
});

/** The author's own view: no account or device details. */
export const myFeedback = feedbackRow.pick({
  id: true,
  app: true,
  content: true,
  images: true,
  status: true,
  reply: true,
  repliedAt: true,
  createdAt: true,
});

export const feedbackFilter = timeRange.extend({
  status: status.optional(),
  app: appCode.optional(),
  search,
});

const feedbackPage = endpoint({
  access: 'admin',
  permission: 'feedback.read',
  summary: '分页查询意见反馈（状态、应用、提交时间、内容或联系方式搜索）',
  input: feedbackFilter.extend({ page, size, exactTotal, sort: sortBy(['createdAt']), order }),
  output: paged(feedbackRow),
});

const singleEndpoints = {
  '/api/feedback/upload': endpoint({
    access: 'public',
    summary:
      'App：上传一张反馈图片（PNG、JPEG、GIF、WebP，按文件内容识别；字段 file）；提交反馈时传回 id，' +
      '未登录时还要传回 token。已登录时请带上登录 token 上传，图片即归该账号',
    input: empty,
    output: uploadedImage,
    upload: { field: 'file', kind: 'image' },
  }),
  '/api/feedback/make': endpoint({
    access: 'public',
    summary: 'App：提交意见反馈（已登录，或未登录但留下联系方式；每台设备、每个 IP 限频）',
    input: z.object({
      app: appCode,
      content: textField(rules.feedbackContent),
      contact: textField(rules.feedbackContact).default(''),
      images: imageIds.default([]),
      imageTokens: imageTokens.default([]),
      ...deviceFields,
    }),
    output: z.object({ feedback: myFeedback }),
    example: {
      app: 'tailor',
      content: '长截图拼接到第 5 张时会闪退，希望尽快修复。',
      contact: 'QQ 12345678',
      version: '2.3.1',
      channel: 'huawei',
      deviceModel: 'HUAWEI Mate 60',
      osVersion: 'HarmonyOS 4.0',
      deviceId: '3f1c2a9e-7b1d-4c55-9a3e-0d6f2b8c1e47',
    },
  }),
  '/api/feedback/fetch/mine': endpoint({
    access: 'user',
    summary: 'App：我提交过的意见反馈与回复（新的在前）',
    input: z.object({ page, size }),
    output: paged(myFeedback),
  }),
  '/api/feedback/fetch/page': feedbackPage,
  '/api/feedback/export': listExport(feedbackPage, '意见反馈'),
  '/api/feedback/reply': endpoint({
    access: 'admin',
    permission: 'feedback.reply',
    summary: '回复意见反馈并标为已处理；已登录的用户会在 App 消息中心收到回复',
    input: feedbackId.extend({ reply: textField(rules.feedbackReply) }),
    output: z.object({ feedback: feedbackRow, messageSent: z.boolean() }),
    example: { id: 1, reply: '感谢反馈！该问题已在 2.3.2 版本修复，请更新后再试。' },
    audit: { action: 'feedback.reply', label: '回复意见反馈', target },
  }),
  '/api/feedback/handle': endpoint({
    access: 'admin',
    permission: 'feedback.reply',
    summary: '把意见反馈标为已处理（不回复）',
    input: feedbackId,
    output: z.object({ feedback: feedbackRow }),
    example: { id: 1 },
    audit: { action: 'feedback.handle', label: '标记反馈已处理', target },
  }),
};

export const feedbackEndpoints = {
  ...singleEndpoints,
  '/api/feedback/handle/batch': batchEndpoint('/api/feedback/handle', singleEndpoints['/api/feedback/handle'], {
    summary: '批量把意见反馈标为已处理（不回复）',
    example: { ids: [1] },
  }),
  '/api/feedback/reply/batch': batchEndpoint('/api/feedback/reply', singleEndpoints['/api/feedback/reply'], {
    summary: '批量回复意见反馈（同一段回复）并标为已处理',
    params: { reply: textField(rules.feedbackReply) },
    example: { ids: [1], reply: '感谢反馈，问题已在新版本修复。' },
  }),
};

export default feedbackEndpoints;
type FeedbackEndpoints = typeof feedbackEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends FeedbackEndpoints {}
}
