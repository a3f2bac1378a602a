import { type ChannelCode, channels } from '@appdesk/contract/constants';
import type { ApiInput, ApiOutput } from '@appdesk/contract/types';

/** 应用管理's form and its inputs: plain functions, so the mapping is tested without a browser. */

export type AppView = ApiOutput<'/api/apps/fetch/detail'>['app'];
export type MakeInput = ApiInput<'/api/apps/make'>;

/** Everything of an app the form edits (its secrets have calls of their own). */
export interface AppValues {
  code: string;
  name: string;
  icon: string;
  description: string;
  enabled: boolean;
  icpFiling: string;
  androidPackage: string;
  iosBundleId: string;
  /** The channels it ships on, and each one's store link ('' = the channel's default for the package). */
  shipped: string[];
  storeLinks: Record<string, string | undefined>;
  appleAppId: string;
  appleEnvironments: string[];
  alipayAppId: string;
  alipayPublicKey: string;
  wechatMchId: string;
  wechatAppId: string;
  wechatPlatformPublicKey: string;
  wechatPlatformSerial: string;
}

export const blankApp: AppValues = {
  code: '',
  name: '',
  icon: '',
  description: '',
  enabled: true,
  icpFiling: '',
  androidPackage: '',
  iosBundleId: '',
  shipped: [],
  storeLinks: {},
  appleAppId: '',
  appleEnvironments: ['Production'],
  alipayAppId: '',
  alipayPublicKey: '',
  wechatMchId: '',
  wechatAppId: '',
  wechatPlatformPublicKey: '',
  wechatPlatformSerial: '',
};

export function toAppValues(app: AppView): AppValues {
  return {
    code: app.code,
    name: app.name,
    icon: app.icon,
    description: app.description,
    enabled: app.enabled,
    icpFiling: app.icpFiling,
    androidPackage: app.androidPackage,
    iosBundleId: app.iosBundleId,
    shipped: app.channels.map((c) => c.channel),
    storeLinks: Object.fromEntries(app.channels.map((c) => [c.channel, c.storeLink])),
    appleAppId: app.appleAppId,
    appleEnvironments: app.appleEnvironments,
    alipayAppId: app.alipayAppId,
    alipayPublicKey: app.alipayPublicKey,
    wechatMchId: app.wechatMchId,
    wechatAppId: app.wechatAppId,
    wechatPlatformPublicKey: app.wechatPlatformPublicKey,
    wechatPlatformSerial: app.wechatPlatformSerial,
  };
}

const channelOrder = new Map<string, number>(channels.map((c, i) => [c.value, i]));

/** What 登记应用 sends: trimmed texts, the shipped channels in the channels' order with their links. */
export function toAppInput(v: AppValues) {
  const shipped = [...new Set(v.shipped)].sort((a, b) => (channelOrder.get(a) ?? 99) - (channelOrder.get(b) ?? 99));
  return {
    code: v.code.trim(),
    name: v.name.trim(),
    icon: v.icon,
    description: v.description.trim(),
    enabled: v.enabled,
    icpFiling: v.icpFiling.trim(),
    androidPackage: v.androidPackage.trim(),
    iosBundleId: v.iosBundleId.trim(),
    channels: shipped.map((channel) => ({
      channel: channel as ChannelCode,
      storeLink: (v.storeLinks[channel] ?? '').trim(),
    })),
    appleAppId: v.appleAppId.trim(),
    appleEnvironments: v.appleEnvironments as NonNullable<MakeInput['appleEnvironments']>,
    alipayAppId: v.alipayAppId.trim(),
    alipayPublicKey: v.alipayPublicKey.trim(),
    wechatMchId: v.wechatMchId.trim(),
    wechatAppId: v.wechatAppId.trim(),
    wechatPlatformPublicKey: v.wechatPlatformPublicKey.trim(),
    wechatPlatformSerial: v.wechatPlatformSerial.trim(),
  } satisfies MakeInput;
}

/** What 保存 of an edit sends: only the fields that changed (never the code, which is immutable). */
export function appChanges(values: AppValues, before: AppView) {
  const next = toAppInput(values);
  const was = toAppInput(toAppValues(before));
  const { code: _code, ...rest } = next;
  return Object.fromEntries(
    Object.entries(rest).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(was[k as keyof typeof was])),
  ) as Partial<Omit<typeof next, 'code'>>;
}
