/**
 * Field rules: the one source of every limit, pattern and message that both the server's zod
 * schemas (fields.ts) and the web's form rules are built from. Zod-free, so light pages can
 * import it. This file holds what several features share; a feature's own limits live beside its
 * contract entry in endpoints/<feature>.rules.ts (the web imports @appdesk/contract/rules/<feature>).
 */

/** A text field: trimmed length bounds and an optional pattern, with the Chinese messages. */
export interface TextRule {
  kind: 'text';
  /** Chinese name of the field, used in every message. */
  title: string;
  min: number;
  max: number;
  pattern?: RegExp;
  /** Shown when the pattern does not match. */
  patternMessage?: string;
}

/** An integer field with inclusive bounds. */
export interface IntegerRule {
  kind: 'integer';
  title: string;
  min: number;
  max: number;
  /** Zero is refused (an adjustment of nothing). */
  nonZero?: boolean;
}

export type FieldRule = TextRule | IntegerRule;

export const textRule = (title: string, min: number, max: number, extra: Partial<TextRule> = {}): TextRule => ({
  kind: 'text',
  title,
  min,
  max,
  ...extra,
});
export const integerRule = (
  title: string,
  min: number,
  max: number,
  extra: Partial<IntegerRule> = {},
): IntegerRule => ({
  kind: 'integer',
  title,
  min,
  max,
  ...extra,
});
const text = textRule;
const integer = integerRule;

/** The largest id a client may send (PostgreSQL `integer`). */
export const MAX_ID = 2_147_483_647;

/** The largest coin balance an account may hold (balances are 64-bit; this keeps them exact in JavaScript). */
export const MAX_COINS = 1_000_000_000_000;

/** Mainland China mobile numbers, and the reserved range of generated accounts (below). */
export const phonePattern = /^1(?:[3-9]\d|00)\d{8}$/;

/**
 * Accounts made by 生成账号 get 11-digit numbers starting 100: no carrier issues mobile numbers
 * there (10x is the short-code range, e.g. 10086), so they can never belong to a real person.
 * Registration refuses the range, so it stays theirs alone.
 */
export const reservedPhonePrefix = '100';

/** Most records one batch action of a list takes (each is its own transaction on the server; batch.ts). */
export const BATCH_MAX = 100;

/** Most users one batch action of the users list (封禁, 解封, 发消息, 导出所选) takes. */
export const USER_BATCH_MAX = 500;
export const isReservedPhone = (phone: string) => phone.startsWith(reservedPhonePrefix);

export const rules = {
  phone: text('手机号', 11, 11, {
    pattern: phonePattern,
    patternMessage: '手机号格式不正确，应为 11 位中国大陆手机号',
  }),
  qq: text('QQ 号', 0, 12, { pattern: /^(|[1-9]\d{4,11})$/, patternMessage: 'QQ 号应为 5 到 12 位数字' }),
  siteTitle: text('站点标题', 1, 40),
  slogen: text('标语', 0, 120),
  about: text('关于我们', 0, 5000),
  icp: text('ICP 备案号', 0, 60),
  police: text('公安备案号', 0, 60),
  downloadUrl: text('下载地址', 0, 500, {
    pattern: /^(|https?:\/\/\S+)$/,
    patternMessage: '下载地址应以 http:// 或 https:// 开头',
  }),
  legalText: text('协议内容', 0, 50000),
  nickname: text('昵称', 1, 20),
  email: text('邮箱', 0, 100),
  reason: text('原因', 1, 200),
  search: text('搜索关键字', 0, 50),
  messageTitle: text('标题', 1, 100),
  messageContent: text('内容', 1, 5000),
  /** Feedback (意见反馈 v1 and v2 threads). */
  feedbackContent: text('反馈内容', 1, 2000),
  feedbackContact: text('联系方式', 0, 100),
  feedbackReply: text('回复内容', 1, 2000),
  appVersionName: text('应用版本', 0, 32),
  deviceModel: text('设备型号', 0, 64),
  osVersion: text('系统版本', 0, 64),
  cannedTitle: text('模板名称', 1, 30),
  /** An article or item title. */
  title: text('标题', 1, 100),
  /** A short grouping name an operator types (a help category, an image category). */
  category: text('分类', 0, 20),
  /** Media libraries (images, sound effects). */
  tag: text('标签', 1, 20, { pattern: /^[^,，]+$/, patternMessage: '标签不能包含逗号' }),
  author: text('作者', 0, 50),
  sourceUrl: text('来源链接', 0, 500, {
    pattern: /^(|https?:\/\/\S+)$/,
    patternMessage: '来源链接应以 http:// 或 https:// 开头',
  }),
  mediaName: text('名称', 1, 60),
  /** Markdown bodies (help articles, agreements). */
  markdown: text('正文', 0, 100_000),
  /** Position in a list an operator orders by hand: smaller first. */
  sort: integer('排序', 0, 999_999),
  coinDelta: integer('调整数量', -1_000_000_000, 1_000_000_000, { nonZero: true }),
  generateCount: integer('数量', 1, 1000),
  /** Releases (版本管理). */
  versionName: text('版本名', 1, 32, {
    pattern: /^[0-9A-Za-z][0-9A-Za-z._+-]{0,31}$/,
    patternMessage: '版本名只能包含字母、数字和 . _ + -，例如 2.0.0',
  }),
  versionCode: integer('版本号', 1, 2_100_000_000),
  minVersionCode: integer('最低支持版本号', 0, 2_100_000_000),
  /** What the app sends: its own version code (0 when unknown). */
  currentVersionCode: integer('当前版本号', 0, 2_100_000_000),
  changelog: text('更新说明', 0, 2000),
  storeUrl: text('商店链接', 0, 500, {
    pattern: /^(|(?!(?:javascript|data|vbscript|file):)[a-zA-Z][a-zA-Z0-9+.-]{1,30}:\/\/\S+)$/,
    patternMessage: '商店链接应形如 market://details?id=… 或 https://…',
  }),
  rollout: integer('灰度比例', 1, 100),
  promptTimes: integer('最多提示次数', 0, 100),
  promptIntervalDays: integer('提示间隔天数', 0, 365),
  deviceId: text('设备 ID', 1, 128),
  channelName: text('渠道', 1, 32),
  /** Remote config (键值配置). */
  configKey: text('键名', 1, 64, {
    pattern: /^[a-z][a-z0-9_.]{0,63}$/,
    patternMessage: '键名以小写字母开头，只能包含小写字母、数字、下划线和点，最多 64 个字符',
  }),
  configValue: text('值', 0, 20_000),
  description: text('说明', 0, 200),
  percent: integer('设备比例', 1, 100),
  configTag: text('版本标记', 0, 64),
  /** Money in integer fen (分): at most 1,000,000 yuan per plan or order. */
  price: integer('价格（分）', 1, 100_000_000),
  originalPrice: integer('原价（分）', 0, 100_000_000),
  durationDays: integer('时长（天）', 1, 36_500),
  bonusCoins: integer('赠送金币', 0, 1_000_000_000),
  planName: text('套餐名称', 1, 30),
  planDescription: text('套餐说明', 0, 200),
  badge: text('角标', 0, 10),
  productId: text('商品 ID', 0, 100, {
    pattern: /^[A-Za-z0-9._-]*$/,
    patternMessage: '商品 ID 只能包含字母、数字、点、下划线和连字符',
  }),
  iapProductId: text('商品 ID', 1, 100, {
    pattern: /^[A-Za-z0-9._-]+$/,
    patternMessage: '商品 ID 只能包含字母、数字、点、下划线和连字符',
  }),
  iapName: text('商品名称', 1, 30),
  iapVipDays: integer('会员天数', 0, 36_500),
  iapCoins: integer('金币', 0, 1_000_000_000),
  orderNote: text('备注', 1, 200),
  /** An operator's VIP adjustment in days: positive extends, negative takes back (at most 100 years). */
  vipDays: integer('调整天数', -36_500, 36_500, { nonZero: true }),
  /** Digits after the reserved 100 of generated accounts. */
  phonePrefix: text('号段', 0, 7, {
    pattern: /^\d{0,7}$/,
    patternMessage: '号段为保留号段 100 之后的数字（最多 7 位），留空则随机',
  }),
  /** The coin shop (积分商城): exchange items and their redemption. */
  exchangeName: text('商品名称', 1, 30),
  exchangeDescription: text('商品说明', 0, 500),
  imageUrl: text('图片', 0, 500),
  exchangeValue: integer('发放数量', 0, 1_000_000_000),
  exchangeCost: integer('所需金币', 1, 1_000_000_000),
  exchangeStock: integer('库存', 0, 100_000_000),
  perUserLimit: integer('每人限兑', 0, 1_000_000),
  redeemCode: text('兑换码', 1, 64),
  receiverName: text('收货人', 1, 20),
  address: text('收货地址', 5, 200),
  carrier: text('快递公司', 1, 20),
  trackingNo: text('快递单号', 4, 40, {
    pattern: /^[A-Za-z0-9-]+$/,
    patternMessage: '快递单号只能包含字母、数字和连字符',
  }),
  reviewCoins: integer('奖励金币', 1, 1_000_000),
} as const satisfies Record<string, FieldRule>;

/** The messages of a text rule, shared word for word by the server and the browser. */
export const textMessages = (rule: TextRule) => ({
  type: `${rule.title}必须是字符串`,
  required: rule.min === 1 ? `${rule.title}不能为空` : `请输入${rule.title}`,
  min: rule.min === 1 ? `${rule.title}不能为空` : `${rule.title}至少 ${rule.min} 个字符`,
  max: `${rule.title}最多 ${rule.max} 个字符`,
  pattern: rule.patternMessage ?? `${rule.title}格式不正确`,
});

/** The messages of an integer rule, shared word for word by the server and the browser. */
export const integerMessages = (rule: IntegerRule) => ({
  type: `${rule.title}必须是数字`,
  required: `请输入${rule.title}`,
  integer: `${rule.title}必须是整数`,
  min: `${rule.title}不能小于 ${rule.min.toLocaleString('zh-CN')}`,
  max: `${rule.title}不能大于 ${rule.max.toLocaleString('zh-CN')}`,
  nonZero: `${rule.title}不能为 0`,
});

/** The label of `value` in a value/label list (channels, apps, statuses), or the value itself. */
export function labelOf<V extends string>(
  options: readonly { value: V; label: string }[],
  value: string | null | undefined,
): string {
  if (value === null || value === undefined) return '';
  return options.find((o) => o.value === value)?.label ?? value;
}

/** The values of a value/label list, as the non-empty tuple zod's enum wants. */
export function valuesOf<V extends string>(options: readonly { value: V }[]): [V, ...V[]] {
  return options.map((o) => o.value) as [V, ...V[]];
}

/**
 * A remote-config value as typed text, checked against its type: the canonical text kept (a
 * number as JavaScript prints it, a boolean as true/false, JSON re-serialised) and the typed
 * value the apps receive, or the Chinese reason it is not one.
 */
export function parseConfigValue(
  type: 'string' | 'number' | 'boolean' | 'json',
  raw: string,
): { ok: true; text: string; value: unknown } | { ok: false; problem: string } {
  switch (type) {
    case 'string':
      return { ok: true, text: raw, value: raw };
    case 'number': {
      const trimmed = raw.trim();
      const n = Number(trimmed);
      if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(trimmed) || !Number.isFinite(n)) {
        return { ok: false, problem: `“${raw.slice(0, 40)}”不是有效的数字` };
      }
      return { ok: true, text: String(n), value: n };
    }
    case 'boolean': {
      const trimmed = raw.trim();
      if (trimmed !== 'true' && trimmed !== 'false') return { ok: false, problem: '布尔值只能是 true 或 false' };
      return { ok: true, text: trimmed, value: trimmed === 'true' };
    }
    case 'json': {
      try {
        const value = JSON.parse(raw) as unknown;
        return { ok: true, text: JSON.stringify(value), value };
      } catch {
        return { ok: false, problem: '不是有效的 JSON' };
      }
    }
  }
}
