import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { DEFAULT_APP, platforms, selfappActions } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  choice,
  exactTotal,
  id,
  integerField,
  isoTime,
  listExport,
  order,
  page,
  paged,
  size,
  sortBy,
  textField,
} from '../fields';
import { rules } from '../rules';
import { MAX_SHOW_IN, selfappRules } from './selfapp.rules';

/**
 * Promotion of the company's other apps (自家应用, spec route `selfapp`): what each of our apps
 * shows in its "more apps" corner, and the app's reports of a show, a click and an install. An
 * install by a signed-in user pays the promoted app's reward through the ledger once per user and
 * promoted app, however often the report is repeated or raced.
 */
const target = auditTarget('selfapp', '自家应用', 'selfapp', {
  icon: { label: '图标', format: 'file' },
  description: '应用简介',
  packageId: '安卓包名',
  androidUrl: '安卓下载地址',
  iosUrl: 'App Store 地址',
  rewardCoins: '安装奖励金币',
  apps: { label: '展示位置', apps: true },
});
const selfappId = id.meta({ title: '推广应用 ID' });
const enabled = z.boolean({ error: '是否启用必须是布尔值' }).meta({ title: '是否启用' });
export const platform = choice('平台', platforms);
export const selfappAction = choice('行为', selfappActions);
/** Which of our apps show a promoted app: at least one; each code names an app (checked by the server). */
const showIn = z
  .array(appCode, { error: '展示位置必须是应用列表' })
  .min(1, { error: '请至少选择一个展示它的应用' })
  .max(MAX_SHOW_IN, { error: `展示位置最多 ${MAX_SHOW_IN} 个应用` })
  .refine((list) => new Set(list).size === list.length, { error: '展示位置重复' })
  .meta({ title: '展示位置' });

export const selfappView = z.object({
  id,
  name: z.string(),
  icon: z.string().meta({ title: '图标地址' }),
  description: z.string(),
  packageId: z.string().meta({ title: '安卓包名' }),
  androidUrl: z.string().meta({ title: '安卓下载地址' }),
  iosUrl: z.string().meta({ title: 'App Store 地址' }),
  rewardCoins: z.number().int().meta({ title: '安装奖励金币' }),
  sort: z.number().int(),
  enabled: z.boolean(),
  apps: z.array(z.string()).meta({ title: '展示位置', description: '展示它的我方应用' }),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type SelfappView = z.infer<typeof selfappView>;

/** A promoted app as an app shows it, for its platform. */
export const promotedApp = z.object({
  id,
  name: z.string(),
  icon: z.string(),
  description: z.string(),
  packageId: z.string().meta({ description: '安卓包名（iOS 为空）：已安装时 App 可直接打开它' }),
  url: z.string().meta({ description: '安卓为下载地址（或应用商店链接），iOS 为 App Store 地址' }),
  rewardCoins: z.number().int(),
  rewarded: z.boolean().meta({ description: '登录用户是否已领过它的安装奖励（未登录为 false）' }),
});

const fields = {
  name: textField(selfappRules.name),
  icon: textField(rules.imageUrl),
  description: textField(selfappRules.description),
  packageId: textField(selfappRules.packageId),
  androidUrl: textField(rules.storeUrl).meta({ title: '安卓下载地址' }),
  iosUrl: textField(rules.storeUrl).meta({ title: 'App Store 地址' }),
  rewardCoins: integerField(selfappRules.installReward),
  sort: integerField(rules.sort),
  enabled,
  apps: showIn,
};

const selfappPage = endpoint({
  access: 'admin',
  permission: 'selfapp.read',
  summary: '分页查询推广应用（启用状态、展示位置）',
  input: z.object({
    page,
    size,
    exactTotal,
    enabled: enabled.optional(),
    app: appCode.optional(),
    sort: sortBy(['sort', 'rewardCoins', 'createdAt']),
    order: order.default('ascend'),
  }),
  output: paged(selfappView.extend({ installs: z.number().int(), rewarded: z.number().int() })),
});

const singleEndpoints = {
  '/api/selfapp/make': endpoint({
    access: 'admin',
    permission: 'selfapp.edit',
    summary: '新建推广应用（公司的其他应用：图标、简介、安卓包名与下载地址、App Store 地址、安装奖励、展示位置）',
    input: z.object({
      ...fields,
      icon: fields.icon.default(''),
      description: fields.description.default(''),
      packageId: fields.packageId.default(''),
      androidUrl: fields.androidUrl.default(''),
      iosUrl: fields.iosUrl.default(''),
      rewardCoins: fields.rewardCoins.default(0),
      sort: fields.sort.default(0),
      enabled: enabled.default(true),
      apps: showIn.default([DEFAULT_APP]),
    }),
    output: z.object({ selfapp: selfappView }),
    example: {
      name: '极简记账',
      packageId: 'com.appdesk.ledger',
      androidUrl: 'https://example.com/ledger.apk',
      iosUrl: 'https://apps.apple.com/cn/app/id1234567890',
      rewardCoins: 50,
    },
    audit: { action: 'selfapp.make', label: '新建推广应用', target },
  }),
  '/api/selfapp/update': endpoint({
    access: 'admin',
    permission: 'selfapp.edit',
    summary: '修改推广应用（只改传入的字段；已发放的奖励不受影响）',
    input: z.object({
      id: selfappId,
      name: fields.name.optional(),
      icon: fields.icon.optional(),
      description: fields.description.optional(),
      packageId: fields.packageId.optional(),
      androidUrl: fields.androidUrl.optional(),
      iosUrl: fields.iosUrl.optional(),
      rewardCoins: fields.rewardCoins.optional(),
      sort: fields.sort.optional(),
      enabled: enabled.optional(),
      apps: showIn.optional(),
    }),
    output: z.object({ selfapp: selfappView }),
    example: { id: 1, rewardCoins: 80 },
    audit: { action: 'selfapp.update', label: '修改推广应用', target },
  }),
  '/api/selfapp/fetch/page': selfappPage,
  '/api/selfapp/export': listExport(selfappPage, '推广应用'),
  '/api/selfapp/fetch/detail': endpoint({
    access: 'admin',
    permission: 'selfapp.read',
    summary: '读取一个推广应用',
    input: z.object({ id: selfappId }),
    output: z.object({ selfapp: selfappView }),
    example: { id: 1 },
  }),
  '/api/selfapp/fetch/list': endpoint({
    access: 'public',
    summary:
      'App：本应用在该平台上推广的公司其他应用（已启用、选了本应用为展示位置、有该平台的地址，从不包括本应用自己），按排序值',
    input: z.object({ app: appCode, platform }),
    output: z.object({ list: z.array(promotedApp) }),
    example: { app: 'tailor', platform: 'android' },
  }),
  '/api/selfapp/report': endpoint({
    access: 'public',
    summary:
      'App：上报一次推广应用的展示（show）、点击（click）或安装（install），带设备 ID（登录时也记下用户）。登录用户上报安装时发放该应用的安装奖励，每个用户每个推广应用只发一次，重复或并发上报不会多发',
    input: z.object({
      id: selfappId,
      action: selfappAction,
      app: appCode,
      platform,
      channel: textField(rules.channelName).default('other'),
      deviceId: textField(rules.deviceId),
    }),
    output: z.object({
      rewarded: z.number().int().meta({ description: '本次发放的金币（没有发放为 0）' }),
      coins: z.number().int().nullable().meta({ description: '本次发放奖励后的金币余额（没有发放为 null）' }),
    }),
    example: { id: 1, action: 'show', app: 'tailor', platform: 'android', channel: 'huawei', deviceId: 'device-1' },
  }),
  '/api/selfapp/remove': endpoint({
    access: 'admin',
    permission: 'selfapp.edit',
    summary: '删除推广应用（App 不再展示；它的推广记录和已发放的奖励保留，记录中显示为已删除的应用）',
    input: z.object({ id: selfappId }),
    output: z.null(),
    example: { id: 1 },
    audit: { action: 'selfapp.remove', label: '删除推广应用', target },
  }),
};

export const selfappEndpoints = {
  ...singleEndpoints,
  '/api/selfapp/update/enabled/batch': batchEndpoint('/api/selfapp/update', singleEndpoints['/api/selfapp/update'], {
    summary: '批量启用或停用推广应用',
    params: { enabled },
    example: { ids: [1], enabled: true },
  }),
};

export default selfappEndpoints;
type SelfappEndpoints = typeof selfappEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends SelfappEndpoints {}
}
