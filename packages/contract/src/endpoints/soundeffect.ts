import { z } from 'zod';
import { auditTarget, endpoint } from '../endpoint';
import {
  exactTotal,
  id,
  integerField,
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

/**
 * Sound effects (音效管理, spec route `soundeffect`): short audio the apps play. The server reads
 * duration, codec and sample rate; the same file (same SHA-256) is never kept twice.
 */
const target = auditTarget('sound', '音效', 'soundeffect', {
  url: { label: '文件', format: 'file' },
  codec: '编码',
  sampleRate: '采样率（Hz）',
});
const category = textField(rules.category);
const enabled = z.boolean({ error: '是否启用必须是布尔值' }).meta({ title: '是否启用' });
const soundId = z.object({ id: id.meta({ title: '音效 ID' }) });

export const soundView = z.object({
  id,
  name: z.string(),
  url: z.string().meta({ title: '播放地址' }),
  category: z.string(),
  durationMs: z.number().int().meta({ title: '时长（毫秒）' }),
  codec: z.string().meta({ title: '编码', description: '例如 MPEG 1 Layer 3、PCM、AAC、FLAC' }),
  sampleRate: z.number().int().nullable().meta({ title: '采样率（Hz）' }),
  mime: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  sort: z.number().int(),
  enabled: z.boolean(),
  fileId: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

/** An enabled sound as the apps play it. */
export const appSound = soundView.pick({
  id: true,
  name: true,
  url: true,
  category: true,
  durationMs: true,
  mime: true,
});

const soundeffectPage = endpoint({
  access: 'admin',
  permission: 'soundeffect.read',
  summary: '分页查询音效（分类、启用状态、名称搜索）',
  input: z.object({
    page,
    size,
    exactTotal,
    category: category.optional(),
    enabled: enabled.optional(),
    search,
    sort: sortBy(['sort', 'createdAt', 'duration']),
    order,
  }),
  output: paged(soundView),
});

export const soundeffectEndpoints = {
  '/api/soundeffect/make': endpoint({
    access: 'admin',
    permission: 'soundeffect.edit',
    summary:
      '上传音效（mp3、m4a/aac、wav、ogg、flac，按文件内容识别；字段 file）；已有相同文件（SHA-256）时不再保存，答复已有的那条（duplicate 为 true）',
    input: z.object({
      name: textField(rules.mediaName).optional(),
      category: category.default(''),
      sort: integerField(rules.sort).default(0),
      enabled: enabled.default(true),
    }),
    output: z.object({ sound: soundView, duplicate: z.boolean() }),
    upload: { field: 'file', kind: 'audio', media: true },
    audit: { action: 'soundeffect.make', label: '上传音效', target },
  }),
  '/api/soundeffect/update': endpoint({
    access: 'admin',
    permission: 'soundeffect.edit',
    summary: '修改音效（只改传入的字段）',
    input: soundId.extend({
      name: textField(rules.mediaName).optional(),
      category: category.optional(),
      sort: integerField(rules.sort).optional(),
      enabled: enabled.optional(),
    }),
    output: z.object({ sound: soundView }),
    example: { id: 1, name: '金币到账', category: '提示音' },
    audit: { action: 'soundeffect.update', label: '修改音效', target },
  }),
  '/api/soundeffect/fetch/page': soundeffectPage,
  '/api/soundeffect/export': listExport(soundeffectPage, '音效'),
  '/api/soundeffect/fetch/categories': endpoint({
    access: 'admin',
    permission: 'soundeffect.read',
    summary: '音效用到的分类（含数量）',
    input: z.object({}),
    output: z.object({ categories: z.array(z.object({ name: z.string(), count: z.number().int() })) }),
  }),
  '/api/soundeffect/fetch/list': endpoint({
    access: 'public',
    summary: 'App：已启用的音效（可按分类），按排序值排列',
    input: z.object({ category: category.optional() }),
    output: z.object({ list: z.array(appSound) }),
    example: { category: '提示音' },
  }),
  '/api/soundeffect/remove': endpoint({
    access: 'admin',
    permission: 'soundeffect.edit',
    summary: '删除音效（连同音频文件）',
    input: soundId,
    output: z.null(),
    example: { id: 1 },
    audit: { action: 'soundeffect.remove', label: '删除音效', target },
  }),
};

export default soundeffectEndpoints;
type SoundeffectEndpoints = typeof soundeffectEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends SoundeffectEndpoints {}
}
