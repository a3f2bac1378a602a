import { APP_CODE_PATTERN } from '../constants';
import { type FieldRule, textRule } from '../rules';

/** 应用管理's own field limits: its contract entry's schemas and its page's form are built from these. */
export const appsRules = {
  /** Immutable once made: every app-scoped record and every app's calls name it. */
  code: textRule('应用代码', 2, 20, {
    pattern: APP_CODE_PATTERN,
    patternMessage: '应用代码为 2–20 位小写字母或数字，以字母开头',
  }),
  name: textRule('应用名称', 1, 20),
  description: textRule('应用简介', 0, 200),
  androidPackage: textRule('安卓包名', 0, 100, {
    pattern: /^(|[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+)$/,
    patternMessage: '安卓包名应形如 com.example.app',
  }),
  iosBundleId: textRule('iOS Bundle ID', 0, 155, {
    pattern: /^(|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+)$/,
    patternMessage: 'iOS Bundle ID 应形如 com.example.app',
  }),
  appleAppId: textRule('Apple ID（应用数字 ID）', 0, 12, {
    pattern: /^(|[1-9][0-9]{5,11})$/,
    patternMessage: 'Apple ID 是 App Store Connect 中应用的数字 ID（6–12 位数字）',
  }),
  icpFiling: textRule('APP 备案号', 0, 40),
  alipayAppId: textRule('支付宝 AppID', 0, 32, {
    pattern: /^(|[0-9]{16})$/,
    patternMessage: '支付宝 AppID 是 16 位数字',
  }),
  alipayPublicKey: textRule('支付宝公钥', 0, 2000, {
    pattern: /^(|[A-Za-z0-9+/=\s-]+)$/,
    patternMessage: '支付宝公钥应为 Base64 或 PEM 格式',
  }),
  wechatMchId: textRule('微信支付商户号', 0, 12, {
    pattern: /^(|[0-9]{8,12})$/,
    patternMessage: '微信支付商户号是 8–12 位数字',
  }),
  wechatAppId: textRule('微信 AppID', 0, 18, {
    pattern: /^(|wx[0-9a-f]{16})$/,
    patternMessage: '微信 AppID 应形如 wx 加 16 位十六进制字符',
  }),
  wechatPlatformPublicKey: textRule('微信支付平台公钥', 0, 2000, {
    pattern: /^(|[A-Za-z0-9+/=\s-]+)$/,
    patternMessage: '微信支付平台公钥应为 Base64 或 PEM 格式',
  }),
  wechatPlatformSerial: textRule('微信支付平台证书序列号', 0, 64, {
    pattern: /^(|[A-Za-z0-9_]+)$/,
    patternMessage: '证书序列号只含字母、数字和下划线',
  }),
  /** A secret's new value; its own limits are checked by kind (appSecretChecks). */
  secretValue: textRule('密钥内容', 1, 20_000),
} as const satisfies Record<string, FieldRule>;

/** The settings kept encrypted: written once, never answered back, each change audited without its value. */
export const appSecretKinds = [
  { value: 'googleServiceAccount', label: 'Google Play 服务账号密钥（JSON）' },
  { value: 'wechatApiV3Key', label: '微信支付 APIv3 密钥' },
] as const;
export type AppSecretKind = (typeof appSecretKinds)[number]['value'];
