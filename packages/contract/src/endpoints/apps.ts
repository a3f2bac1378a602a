import { z } from 'zod';
import { batchEndpoint } from '../batch';
import { channels, iapEnvironments } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  choice,
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
import { ANY_OPERATOR } from '../permissions';
import { rules, valuesOf } from '../rules';
import { appSecretKinds, appsRules } from './apps.rules';

/**
 * 应用管理: the company's apps as data. Each app has an immutable code that every app-scoped
 * record and every app's call names, its identities per platform, the channels it ships on, the
 * app-specific part of its legal texts, and its store and payment settings. Secrets (a Google
 * service account, the WeChat Pay APIv3 key) are set by their own call, kept encrypted and never
 * answered back. The first app, 滚动截屏 (`tailor`), exists on every site and takes the
 * environment's store and payment variables as its settings (docs/apps.md).
 */
const target = auditTarget('app', '应用', 'apps', {
  icon: { label: '图标', format: 'file' },
  channels: '上架渠道',
  appleEnvironments: { label: '接受的 App Store 环境', values: iapEnvironments },
  kind: { label: '密钥', values: appSecretKinds },
  set: '是否已设置',
});
const appId = id.meta({ title: '应用 ID' });
const enabled = z.boolean({ error: '是否启用必须是布尔值' }).meta({ title: '是否启用' });
const channel = choice('渠道', channels);
const appleEnvironment = choice('App Store 环境', iapEnvironments);

/** A channel the app ships on, with its store link ('' = the channel's default link for the app's package). */
const shippedChannel = z.object(
  { channel, storeLink: textField(rules.storeUrl).default('') },
  { error: '上架渠道的每一项应包含渠道和商店链接' },
);
const shippedChannels = z
  .array(shippedChannel, { error: '上架渠道必须是列表' })
  .max(channels.length, { error: '上架渠道重复' })
  .refine((list) => new Set(list.map((c) => c.channel)).size === list.length, { error: '上架渠道重复' })
  .meta({ title: '上架渠道' });
const appleEnvironments = z
  .array(appleEnvironment, { error: '接受的环境必须是列表' })
  .max(2, { error: '接受的环境重复' })
  .refine((list) => new Set(list).size === list.length, { error: '接受的环境重复' })
  .meta({ title: '接受的 App Store 环境' });

const secretState = z.object({
  set: z.boolean(),
  setAt: isoTime.nullable(),
  /** Where the value in use comes from: the console (encrypted), the environment, or nowhere. */
  source: choice('来源', [
    { value: 'console', label: '控制台（加密保存）' },
    { value: 'environment', label: '环境变量' },
    { value: 'none', label: '未设置' },
  ]),
});

/** Everything an operator sees of an app; a secret only as whether it is set and when. */
export const appView = z.object({
  id,
  code: z.string().meta({ title: '应用代码' }),
  name: z.string().meta({ title: '应用名称' }),
  icon: z.string().meta({ title: '图标地址' }),
  description: z.string(),
  enabled: z.boolean(),
  isDefault: z.boolean().meta({ description: '第一个应用（滚动截屏）：旧数据和未指明应用的调用都属于它' }),
  androidPackage: z.string().meta({ title: '安卓包名' }),
  iosBundleId: z.string().meta({ title: 'iOS Bundle ID' }),
  appleAppId: z.string().meta({ title: 'Apple ID' }),
  channels: z.array(z.object({ channel: z.string(), storeLink: z.string() })).meta({ title: '上架渠道' }),
  icpFiling: z.string().meta({ title: 'APP 备案号' }),
  appleEnvironments: z.array(z.string()).meta({ title: '接受的 App Store 环境' }),
  alipayAppId: z.string().meta({ title: '支付宝 AppID' }),
  alipayPublicKey: z.string().meta({ title: '支付宝公钥' }),
  wechatMchId: z.string().meta({ title: '微信支付商户号' }),
  wechatAppId: z.string().meta({ title: '微信 AppID' }),
  wechatPlatformPublicKey: z.string().meta({ title: '微信支付平台公钥' }),
  wechatPlatformSerial: z.string().meta({ title: '微信支付平台证书序列号' }),
  secrets: z.object(Object.fromEntries(appSecretKinds.map((k) => [k.value, secretState])) as never) as z.ZodObject<{
    googleServiceAccount: typeof secretState;
    wechatApiV3Key: typeof secretState;
  }>,
  /** Which platforms take their settings from today's environment variables (only the default app). */
  fromEnvironment: z.object({ apple: z.boolean(), google: z.boolean(), alipay: z.boolean(), wechat: z.boolean() }),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type AppView = z.infer<typeof appView>;

/** What every console page needs of each app: the switcher, filters and the app's name in cells. */
export const appOption = z.object({ code: z.string(), name: z.string(), icon: z.string(), enabled: z.boolean() });
export type AppOption = z.infer<typeof appOption>;

const fields = {
  name: textField(appsRules.name),
  icon: textField(rules.imageUrl),
  description: textField(appsRules.description),
  enabled,
  androidPackage: textField(appsRules.androidPackage),
  iosBundleId: textField(appsRules.iosBundleId),
  appleAppId: textField(appsRules.appleAppId),
  channels: shippedChannels,
  icpFiling: textField(appsRules.icpFiling),
  appleEnvironments,
  alipayAppId: textField(appsRules.alipayAppId),
  alipayPublicKey: textField(appsRules.alipayPublicKey),
  wechatMchId: textField(appsRules.wechatMchId),
  wechatAppId: textField(appsRules.wechatAppId),
  wechatPlatformPublicKey: textField(appsRules.wechatPlatformPublicKey),
  wechatPlatformSerial: textField(appsRules.wechatPlatformSerial),
};
const optional = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.optional()])) as {
  [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
};

const appsPage = endpoint({
  access: 'admin',
  permission: 'apps.read',
  summary: '分页查询应用（按代码或名称搜索、启用状态）',
  input: z.object({
    page,
    size,
    exactTotal,
    search,
    enabled: enabled.optional(),
    sort: sortBy(['createdAt', 'code']),
    order: order.default('ascend'),
  }),
  output: paged(appView),
});

const singleEndpoints = {
  '/api/apps/fetch/page': appsPage,
  '/api/apps/export': listExport(appsPage, '应用'),
  '/api/apps/fetch/options': endpoint({
    access: 'admin',
    permission: ANY_OPERATOR,
    summary: '全部应用的代码、名称、图标和启用状态（控制台的应用切换、筛选和显示应用名用），以及能否在控制台保存密钥',
    input: z.object({}),
    output: z.object({
      list: z.array(appOption),
      secretsWritable: z
        .boolean()
        .meta({ description: '服务器配置了 APPDESK_SECRETS_KEY：密钥可以在控制台设置（加密保存）' }),
    }),
  }),
  '/api/apps/fetch/detail': endpoint({
    access: 'admin',
    permission: 'apps.read',
    summary: '读取一个应用（密钥只显示是否已设置及设置时间）',
    input: z.object({ id: appId }),
    output: z.object({ app: appView }),
    example: { id: 1 },
  }),
  '/api/apps/make': endpoint({
    access: 'admin',
    permission: 'apps.edit',
    summary: '登记新应用（代码创建后不可修改；商店与支付设置可以之后再填）',
    input: z.object({
      code: textField(appsRules.code),
      ...fields,
      icon: fields.icon.default(''),
      description: fields.description.default(''),
      enabled: enabled.default(true),
      androidPackage: fields.androidPackage.default(''),
      iosBundleId: fields.iosBundleId.default(''),
      appleAppId: fields.appleAppId.default(''),
      channels: shippedChannels.default([]),
      icpFiling: fields.icpFiling.default(''),
      appleEnvironments: appleEnvironments.default(['Production']),
      alipayAppId: fields.alipayAppId.default(''),
      alipayPublicKey: fields.alipayPublicKey.default(''),
      wechatMchId: fields.wechatMchId.default(''),
      wechatAppId: fields.wechatAppId.default(''),
      wechatPlatformPublicKey: fields.wechatPlatformPublicKey.default(''),
      wechatPlatformSerial: fields.wechatPlatformSerial.default(''),
    }),
    output: z.object({ app: appView }),
    example: { code: 'quote', name: '名言', iosBundleId: 'com.appdesk.quote', alipayAppId: '2021000000000001' },
    audit: { action: 'apps.make', label: '登记应用', target },
  }),
  '/api/apps/update': endpoint({
    access: 'admin',
    permission: 'apps.edit',
    summary: '修改应用（只改传入的字段；代码不可修改）',
    input: z.object({ id: appId, ...optional }),
    output: z.object({ app: appView }),
    example: { id: 1, name: '滚动截屏' },
    audit: { action: 'apps.update', label: '修改应用', target },
  }),
  '/api/apps/secret/set': endpoint({
    access: 'admin',
    permission: 'apps.secrets',
    summary:
      '设置或清除应用的一项密钥（加密保存，之后不再显示；操作日志只记设置与否）。服务器未配置 APPDESK_SECRETS_KEY 时拒绝',
    input: z.object({
      id: appId,
      kind: choice('密钥', appSecretKinds),
      value: textField(appsRules.secretValue).nullable().meta({ description: '新的值；null 清除' }),
    }),
    output: z.object({ app: appView }),
    example: { id: 1, kind: 'wechatApiV3Key', value: '0123456789abcdef0123456789abcdef' },
    audit: { action: 'apps.secret', label: '设置应用密钥', target },
  }),
};

export const appsEndpoints = {
  ...singleEndpoints,
  '/api/apps/update/enabled/batch': batchEndpoint('/api/apps/update', singleEndpoints['/api/apps/update'], {
    summary: '批量启用或停用应用（停用的应用的 App 调用一律被拒绝）',
    params: { enabled },
    example: { ids: [1], enabled: true },
  }),
};

/** The codes of the secret kinds, for the server's loops. */
export const appSecretKindValues = valuesOf(appSecretKinds);

export default appsEndpoints;
type AppsEndpoints = typeof appsEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends AppsEndpoints {}
}
