import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { channels, platforms, versionStatuses } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  channelCode,
  choice,
  exactTotal,
  id,
  integerField,
  isoTime,
  listExport,
  oneOf,
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
 * Releases per store channel (版本管理) and the app's update check. A release belongs to one app,
 * platform and channel; only published ones are offered, to a stable share of devices (rollout).
 */
const target = auditTarget('version', '版本', 'version', {
  package: '安装包',
  publishedAt: '发布时间',
  url: { label: '文件', format: 'file' },
  md5: { label: 'MD5 摘要', format: 'hidden' },
  packageName: '包名',
});
const versionId = z.object({ id: id.meta({ title: '版本 ID' }) });
const platform = choice('平台', platforms);
const status = choice('状态', versionStatuses);
const flag = (title: string) => z.boolean({ error: `${title}必须是布尔值` }).meta({ title });

/** The package a release ships, as stored (files/update). */
export const releasePackage = z.object({
  fileId: z.number().int(),
  url: z.string(),
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  md5: z.string(),
  packageName: z.string(),
});

export const release = z.object({
  id,
  app: z.string(),
  platform: z.string(),
  channel: z.string(),
  versionName: z.string(),
  versionCode: z.number().int(),
  minVersionCode: z.number().int(),
  changelog: z.string(),
  package: releasePackage.nullable(),
  storeUrl: z.string(),
  status,
  rollout: z.number().int(),
  promptTimes: z.number().int(),
  promptIntervalDays: z.number().int(),
  ignorable: z.boolean(),
  reviewHold: z.boolean(),
  publishedAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

const editable = {
  versionName: textField(rules.versionName),
  versionCode: integerField(rules.versionCode),
  minVersionCode: integerField(rules.minVersionCode),
  changelog: textField(rules.changelog),
  fileId: id.nullable().meta({ title: '安装包文件 ID' }),
  storeUrl: textField(rules.storeUrl),
  rollout: integerField(rules.rollout),
  promptTimes: integerField(rules.promptTimes),
  promptIntervalDays: integerField(rules.promptIntervalDays),
  ignorable: flag('可忽略'),
  reviewHold: flag('审核中暂停提示'),
};

/** What the app gets about the version it should update to. */
export const offeredVersion = z.object({
  id,
  versionName: z.string(),
  versionCode: z.number().int(),
  minVersionCode: z.number().int(),
  changelog: z.string(),
  channel: z.string().meta({ title: '实际渠道', description: '未知渠道按 other（官网）处理' }),
  delivery: z.enum(['store', 'direct']).meta({ description: 'store：打开 storeUrl；direct：下载 downloadUrl' }),
  storeUrl: z.string(),
  downloadUrl: z.string(),
  size: z.number().int(),
  md5: z.string(),
  sha256: z.string(),
  prompt: z.object({
    times: z.number().int().meta({ description: '非强制更新最多提示几次，0 为不限' }),
    intervalDays: z.number().int().meta({ description: '两次提示至少间隔几天' }),
    ignorable: z.boolean().meta({ description: '用户可以选择“忽略此版本”' }),
  }),
  publishedAt: isoTime.nullable(),
});

const example = {
  app: 'tailor',
  platform: 'android',
  channel: 'huawei',
  versionName: '2.0.0',
  versionCode: 200,
  minVersionCode: 150,
  changelog: '1. 长截图拼接更快\n2. 修复部分机型闪退',
  storeUrl: 'appmarket://details?id=com.appdesk.tailor',
} as const;

const versionPage = endpoint({
  access: 'admin',
  permission: 'version.read',
  summary: '分页查询版本（应用、平台、渠道、状态、版本名搜索）',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    platform: platform.optional(),
    channel: channelCode.optional(),
    status: status.optional(),
    search,
    sort: sortBy(['versionCode', 'updatedAt', 'publishedAt']),
    order,
  }),
  output: paged(release),
});

const singleEndpoints = {
  '/api/version/make': endpoint({
    access: 'admin',
    permission: 'version.edit',
    summary: '新建版本（草稿或直接发布）；APK 会读出包名并校验属于该应用',
    input: z.object({
      app: appCode.default('tailor'),
      platform,
      channel: channelCode,
      ...editable,
      minVersionCode: editable.minVersionCode.default(0),
      changelog: editable.changelog.default(''),
      fileId: editable.fileId.default(null),
      storeUrl: editable.storeUrl.default(''),
      rollout: editable.rollout.default(100),
      promptTimes: editable.promptTimes.default(0),
      promptIntervalDays: editable.promptIntervalDays.default(1),
      ignorable: editable.ignorable.default(true),
      reviewHold: editable.reviewHold.optional(),
      published: flag('是否发布').default(false),
    }),
    output: z.object({ version: release }),
    example,
    audit: { action: 'version.make', label: '新建版本', target },
  }),
  '/api/version/update': endpoint({
    access: 'admin',
    permission: 'version.edit',
    summary: '修改版本（只改传入的字段；可调整灰度比例、提示规则）',
    input: versionId.extend(
      Object.fromEntries(Object.entries(editable).map(([k, v]) => [k, v.optional()])) as {
        [K in keyof typeof editable]: z.ZodOptional<(typeof editable)[K]>;
      },
    ),
    output: z.object({ version: release }),
    example: { id: 1, rollout: 50, changelog: '1. 长截图拼接更快' },
    audit: { action: 'version.update', label: '修改版本', target },
  }),
  '/api/version/publish': endpoint({
    access: 'admin',
    permission: 'version.publish',
    summary: '发布或恢复版本（App 检查更新时可以得到它）',
    input: versionId,
    output: z.object({ version: release }),
    example: { id: 1 },
    audit: { action: 'version.publish', label: '发布版本', target },
  }),
  '/api/version/pause': endpoint({
    access: 'admin',
    permission: 'version.publish',
    summary: '暂停版本（不再提示更新，可恢复）',
    input: versionId,
    output: z.object({ version: release }),
    example: { id: 1 },
    audit: { action: 'version.pause', label: '暂停版本', target },
  }),
  '/api/version/rollback': endpoint({
    access: 'admin',
    permission: 'version.publish',
    summary: '回滚版本（撤下，App 改为得到上一个已发布版本）',
    input: versionId,
    output: z.object({ version: release }),
    example: { id: 1 },
    audit: { action: 'version.rollback', label: '回滚版本', target },
  }),
  '/api/version/copy': endpoint({
    access: 'admin',
    permission: 'version.edit',
    summary: '把一个版本复制到其他渠道（已有同版本号的渠道跳过）',
    input: versionId.extend({
      channels: z
        .array(channelCode, { error: '渠道必须是数组' })
        .min(1, { error: '请至少选择一个渠道' })
        .max(channels.length, { error: '渠道过多' })
        .meta({ title: '目标渠道' }),
    }),
    output: z.object({ created: z.array(release), skipped: z.array(z.string()) }),
    example: { id: 1, channels: ['xiaomi', 'oppo'] },
    audit: { action: 'version.copy', label: '复制版本到其他渠道', target },
  }),
  '/api/version/remove': endpoint({
    access: 'admin',
    permission: 'version.edit',
    summary: '删除版本（只能删除草稿）',
    input: versionId,
    output: z.null(),
    example: { id: 3 },
    audit: { action: 'version.remove', label: '删除版本', target },
  }),
  '/api/version/fetch/page': versionPage,
  '/api/version/export': listExport(versionPage, '版本'),
  '/api/version/fetch/detail': endpoint({
    access: 'admin',
    permission: 'version.read',
    summary: '读取一个版本',
    input: versionId,
    output: z.object({ version: release }),
    example: { id: 1 },
  }),
  '/api/version/fetch/matrix': endpoint({
    access: 'admin',
    permission: 'version.read',
    summary: '渠道 × 版本矩阵：每个渠道各版本的状态与灰度比例',
    input: z.object({ app: appCode.default('tailor'), platform }),
    output: z.object({
      columns: z.array(z.object({ versionCode: z.number().int(), versionName: z.string() })),
      rows: z.array(
        z.object({
          channel: z.string(),
          cells: z.array(
            z.object({ versionCode: z.number().int(), id, status: z.string(), rollout: z.number().int() }),
          ),
        }),
      ),
    }),
    example: { app: 'tailor', platform: 'android' },
  }),
  '/api/version/fetch/stats': endpoint({
    access: 'admin',
    permission: 'version.read',
    summary: '版本统计：按版本、渠道、日期的检查更新、弹出提示、下载次数',
    input: z.object({
      app: appCode.default('tailor'),
      platform: platform.optional(),
      channel: channelCode.optional(),
      days: z
        .number()
        .int()
        .min(1, { error: '天数至少为 1' })
        .max(90, { error: '天数最多 90' })
        .default(14)
        .meta({ title: '天数' }),
    }),
    output: z.object({
      list: z.array(
        z.object({
          day: z.string(),
          versionId: z.number().int(),
          versionName: z.string(),
          channel: z.string(),
          checks: z.number().int(),
          prompts: z.number().int(),
          downloads: z.number().int(),
        }),
      ),
    }),
    example: { app: 'tailor', days: 7 },
  }),
  '/api/version/parse': endpoint({
    access: 'admin',
    permission: 'version.read',
    summary: '读取已上传安装包的信息（包名、版本名、版本号、图标），用于预填表单',
    input: z.object({ fileId: id.meta({ title: '安装包文件 ID' }), app: appCode.default('tailor') }),
    output: z.object({
      packageType: z.string(),
      packageName: z.string(),
      versionName: z.string(),
      versionCode: z.number().int().nullable(),
      icon: z.string().nullable().meta({ description: 'data:image/png;base64,…' }),
      belongsToApp: z.boolean(),
      expectedPackage: z.string(),
    }),
    example: { fileId: 3 },
  }),
  '/api/version/fetch/latest': endpoint({
    access: 'public',
    summary: 'App：检查更新。updateType 0 无更新、1 可选更新、2 强制更新；未知渠道按 other 处理',
    input: z.object({
      app: appCode,
      platform,
      channel: textField(rules.channelName),
      versionCode: integerField(rules.currentVersionCode),
      deviceId: textField(rules.deviceId),
    }),
    output: z.object({
      updateType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      version: offeredVersion.nullable(),
    }),
    example: { app: 'tailor', platform: 'android', channel: 'huawei', versionCode: 120, deviceId: 'a1b2c3d4-device' },
  }),
  '/api/version/report': endpoint({
    access: 'public',
    summary: 'App：上报更新提示已弹出（prompt）或已开始下载（download），用于版本统计',
    input: z.object({
      id: id.meta({ title: '版本 ID' }),
      event: oneOf('事件', ['prompt', 'download']),
      channel: textField(rules.channelName),
    }),
    output: z.null(),
    example: { id: 1, event: 'prompt', channel: 'huawei' },
  }),
};

export const versionEndpoints = {
  ...singleEndpoints,
  '/api/version/publish/batch': batchEndpoint('/api/version/publish', singleEndpoints['/api/version/publish'], {
    summary: '批量发布或恢复版本',
    example: { ids: [1] },
  }),
  '/api/version/pause/batch': batchEndpoint('/api/version/pause', singleEndpoints['/api/version/pause'], {
    summary: '批量暂停版本',
    example: { ids: [1] },
  }),
};

export default versionEndpoints;
type VersionEndpoints = typeof versionEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends VersionEndpoints {}
}
