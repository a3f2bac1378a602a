/** Runtime constants shared by server and web. Kept free of zod so light pages can import it. */

/**
 * The first app, 滚动截屏: every site has it (migrations register it), the data from before apps
 * were data belongs to it, and the environment's store and payment variables are its settings.
 */
export const DEFAULT_APP = 'tailor';
export const DEFAULT_APP_NAME = '滚动截屏';
/** An app's code: 2–20 lowercase letters or digits, a letter first (apps.rules.ts has its messages). */
export const APP_CODE_PATTERN = /^[a-z][a-z0-9]{1,19}$/;

/** Store distribution channels (docs/spec-notes.md#3-stored-state-apps-and-channels), each with its Chinese description. */
export const channels = [
  { value: 'oppo', label: 'OPPO 软件商店' },
  { value: 'vivo', label: 'vivo 应用商店' },
  { value: 'huawei', label: '华为应用市场' },
  { value: 'appstore', label: '苹果 App Store' },
  { value: 'googleplay', label: 'Google Play' },
  { value: 'meizu', label: '魅族应用商店' },
  { value: '360', label: '360 手机助手' },
  { value: 'uc', label: 'UC 应用商店' },
  { value: 'lianxiang', label: '联想乐商店' },
  { value: 'other', label: '其他渠道' },
  { value: 'baidu', label: '百度手机助手' },
  { value: 'yingyongbao', label: '腾讯应用宝' },
  { value: 'xiaomi', label: '小米应用商店' },
  { value: 'wandoujia', label: '豌豆荚' },
  { value: '91', label: '91 助手' },
  { value: 'hiMarket', label: '安智 / 应用汇' },
  { value: 'pp', label: 'PP 助手' },
  { value: 'samsung', label: '三星应用商店' },
  { value: 'jinli', label: '金立软件商店' },
  { value: 'kupai', label: '酷派应用商店' },
  { value: 'yidong', label: '中国移动 MM 商场' },
  { value: 'anzhi', label: '安智市场' },
  { value: 'kuan', label: '酷安' },
  { value: 'zhuoyi', label: '卓易市场' },
] as const;
export type ChannelCode = (typeof channels)[number]['value'];

/** Where an app whose channel is unknown gets its updates (the official site). */
export const FALLBACK_CHANNEL: ChannelCode = 'other';

/**
 * How each channel delivers an update: through its store (the app opens a store link, as Chinese
 * stores require: `market://details?id=…`) or as a direct download (the official site, `other`).
 * `holdDuringReview`: the store forbids update prompts while a version is under its review
 * (vivo's rule), so new versions of that channel start with prompts held.
 */
export const channelDelivery: Record<
  ChannelCode,
  { delivery: 'store' | 'direct'; storeLink?: string; holdDuringReview?: boolean }
> = {
  oppo: { delivery: 'store', storeLink: 'oppomarket://details?packagename={package}' },
  vivo: { delivery: 'store', storeLink: 'vivomarket://details?id={package}', holdDuringReview: true },
  huawei: { delivery: 'store', storeLink: 'appmarket://details?id={package}' },
  appstore: { delivery: 'store', storeLink: 'itms-apps://apps.apple.com/app/id{appleId}' },
  googleplay: { delivery: 'store', storeLink: 'market://details?id={package}' },
  meizu: { delivery: 'store', storeLink: 'mstore://details?package_name={package}' },
  '360': { delivery: 'store', storeLink: 'market://details?id={package}' },
  uc: { delivery: 'store', storeLink: 'market://details?id={package}' },
  lianxiang: { delivery: 'store', storeLink: 'market://details?id={package}' },
  other: { delivery: 'direct' },
  baidu: { delivery: 'store', storeLink: 'market://details?id={package}' },
  yingyongbao: { delivery: 'store', storeLink: 'tmast://appdetails?pname={package}' },
  xiaomi: { delivery: 'store', storeLink: 'mimarket://details?id={package}' },
  wandoujia: { delivery: 'store', storeLink: 'market://details?id={package}' },
  '91': { delivery: 'store', storeLink: 'market://details?id={package}' },
  hiMarket: { delivery: 'store', storeLink: 'market://details?id={package}' },
  pp: { delivery: 'store', storeLink: 'market://details?id={package}' },
  samsung: { delivery: 'store', storeLink: 'samsungapps://ProductDetail/{package}' },
  jinli: { delivery: 'store', storeLink: 'market://details?id={package}' },
  kupai: { delivery: 'store', storeLink: 'market://details?id={package}' },
  yidong: { delivery: 'store', storeLink: 'market://details?id={package}' },
  anzhi: { delivery: 'store', storeLink: 'market://details?id={package}' },
  kuan: { delivery: 'store', storeLink: 'market://details?id={package}' },
  zhuoyi: { delivery: 'store', storeLink: 'market://details?id={package}' },
};

/** The store link of a channel for an Android package (empty where the operator must paste one). */
export function storeLinkFor(channel: ChannelCode, packageName: string): string {
  const template = channelDelivery[channel].storeLink;
  if (!template || template.includes('{appleId}')) return '';
  return template.replace('{package}', packageName);
}

/** The platforms an app ships on (releases, plans, IAP products). */
export const platforms = [
  { value: 'android', label: 'Android' },
  { value: 'ios', label: 'iOS' },
] as const;
export type Platform = (typeof platforms)[number]['value'];

/** A release's state: only `published` ones are offered to the apps. */
export const versionStatuses = [
  { value: 'draft', label: '草稿' },
  { value: 'published', label: '已发布' },
  { value: 'paused', label: '已暂停' },
  { value: 'rolledback', label: '已回滚' },
] as const;
export type VersionStatus = (typeof versionStatuses)[number]['value'];

/** The update-check answer's `updateType`, in the common 0/1/2 convention. */
export const UpdateType = { NONE: 0, OPTIONAL: 1, FORCED: 2 } as const;

/** Feedback (意见反馈) v1: pending until an operator replies or marks it handled. */
export const feedbackStatuses = [
  { value: 'pending', label: '待处理' },
  { value: 'handled', label: '已处理' },
] as const;
export type FeedbackStatus = (typeof feedbackStatuses)[number]['value'];

/** Images one feedback or one reply may carry. */
export const FEEDBACK_MAX_IMAGES = 4;

/** Errors the console and the home page reported (前端错误): open until an operator marks them handled. */
export const clientErrorStatuses = [
  { value: 'open', label: '未处理' },
  { value: 'resolved', label: '已处理' },
] as const;
export type ClientErrorStatus = (typeof clientErrorStatuses)[number]['value'];

/** How the browser saw a reported error. */
export const clientErrorKinds = [
  { value: 'error', label: '未捕获的错误' },
  { value: 'rejection', label: '未处理的 Promise 拒绝' },
] as const;
export type ClientErrorKind = (typeof clientErrorKinds)[number]['value'];

/** Feedback v2 threads (反馈会话): what the user is writing about. */
export const threadCategories = [
  { value: 'bug', label: '问题反馈' },
  { value: 'suggestion', label: '功能建议' },
  { value: 'payment', label: '支付问题' },
  { value: 'account', label: '账号问题' },
  { value: 'other', label: '其他' },
] as const;
export type ThreadCategory = (typeof threadCategories)[number]['value'];

/** open: waiting for an operator; replied: waiting for the user; closed: done (a new user post opens it again). */
export const threadStatuses = [
  { value: 'open', label: '待回复' },
  { value: 'replied', label: '已回复' },
  { value: 'closed', label: '已关闭' },
] as const;
export type ThreadStatus = (typeof threadStatuses)[number]['value'];
/** The 反馈工单 list's 负责人 filter: threads the signed-in operator holds, or nobody does. */
export const threadAssignees = [
  { value: 'me', label: '我负责的' },
  { value: 'none', label: '未分配' },
] as const;

/** The kinds of a stored file (what its bytes are), with the label operators see. */
export const fileKinds = [
  { value: 'image', label: '图片' },
  { value: 'audio', label: '音频' },
  { value: 'package', label: '安装包' },
] as const;

/** App packages told apart by their zip entries: APK (AndroidManifest.xml), AAB (base/manifest/), IPA (Payload/*.app/). */
export const packageTypes = [
  { value: 'apk', label: 'Android 安装包（APK）', mime: 'application/vnd.android.package-archive' },
  { value: 'aab', label: 'Android App Bundle（AAB）', mime: 'application/x-android-app-bundle' },
  { value: 'ipa', label: 'iOS 安装包（IPA）', mime: 'application/x-ios-app' },
] as const;
export type PackageType = (typeof packageTypes)[number]['value'];

/** Remote config (键值配置) value types. */
export const configTypes = [
  { value: 'string', label: '字符串' },
  { value: 'number', label: '数字' },
  { value: 'boolean', label: '布尔' },
  { value: 'json', label: 'JSON' },
] as const;
export type ConfigType = (typeof configTypes)[number]['value'];

/** Upload limits in bytes (docs/architecture.md#files). */
export const uploadLimits = {
  image: 10 * 1024 * 1024,
  audio: 50 * 1024 * 1024,
  package: 2 * 1024 * 1024 * 1024,
} as const;
export type UploadKind = keyof typeof uploadLimits;
/** What an upload endpoint accepts: one kind, or `any` accepted image, audio or package (each within its own limit). */
export type UploadAccept = UploadKind | 'any';

/** Client timings (docs/spec-notes.md#9-presentation-and-timings). */
export const timings = {
  chunkLoadTimeoutMs: 120_000,
  uploadTimeoutMs: 36_000_000,
  unreadThrottleMs: 60_000,
  adminNotificationSeconds: 1.5,
  spinnerDebounceMs: 200,
} as const;

/** A mobile screen is one under 900 px wide (docs/spec-notes.md#9-presentation-and-timings). */
export const MOBILE_MAX_WIDTH = 900;

/** Local storage keys for the stored session (docs/spec-notes.md#3-stored-state-apps-and-channels). */
export const storageKeys = { user: 'user', token: 'token' } as const;

/** Why a coin balance changed (docs/architecture.md#money-coins-vip-orders), with the label operators see. */
export const coinReasons = [
  { value: 'register', label: '注册赠送' },
  { value: 'order', label: '购买套餐' },
  { value: 'iap', label: '应用内购买' },
  { value: 'exchange', label: '兑换商品' },
  { value: 'review_reward', label: '好评奖励' },
  { value: 'selfapp', label: '推广奖励' },
  { value: 'admin', label: '管理员调整' },
] as const;
export type CoinReason = (typeof coinReasons)[number]['value'];

/** What an app reports about a promoted app (推广记录的行为). */
export const selfappActions = [
  { value: 'show', label: '展示' },
  { value: 'click', label: '点击' },
  { value: 'install', label: '安装' },
] as const;
export type SelfappAction = (typeof selfappActions)[number]['value'];

/** Why a VIP expiry changed (the `vip_records` history), with the label operators see. */
export const vipReasons = [
  { value: 'order', label: '购买套餐' },
  { value: 'iap', label: '应用内购买' },
  { value: 'exchange', label: '兑换商品' },
  { value: 'refund', label: '退款收回' },
  { value: 'admin', label: '管理员调整' },
] as const;
export type VipReason = (typeof vipReasons)[number]['value'];

/** The business records a coin or VIP change points at (`ref_type`), with the words operators read. */
export const recordSources = [
  { value: 'order', label: '订单' },
  { value: 'iap', label: '内购记录' },
  { value: 'exchange', label: '兑换记录' },
  { value: 'exchange.grant', label: '兑换记录' },
  { value: 'exchange.cancel', label: '兑换记录（取消退回）' },
  { value: 'review_reward', label: '好评奖励' },
  { value: 'selfapp_install', label: '推广安装' },
  { value: 'user', label: '用户' },
] as const;

/** The expiry a lifetime VIP gets: 9999-12-31 23:59:59 UTC (shown as 永久). */
export const VIP_LIFETIME_MS = 253_402_300_799_000;

/** Order states (订单状态), with the labels operators see. */
export const orderStatuses = [
  { value: 'pending', label: '待支付' },
  { value: 'paid', label: '已支付' },
  { value: 'cancelled', label: '已取消' },
  { value: 'refunded', label: '已退款' },
  { value: 'closed', label: '已关闭' },
] as const;
export type OrderStatus = (typeof orderStatuses)[number]['value'];

/** How an order is paid. */
export const payMethods = [
  { value: 'alipay', label: '支付宝' },
  { value: 'wechat', label: '微信支付' },
] as const;
export type PayMethod = (typeof payMethods)[number]['value'];

/** What an order's timeline records. */
export const orderEventKinds = [
  { value: 'created', label: '创建订单' },
  { value: 'paid', label: '确认收款' },
  { value: 'granted', label: '发放权益' },
  { value: 'cancelled', label: '取消订单' },
  { value: 'closed', label: '超时关闭' },
  { value: 'refunded', label: '退款' },
] as const;

/** In-app purchase product types (内购商品类型). */
export const iapProductTypes = [
  { value: 'consumable', label: '消耗型' },
  { value: 'non_consumable', label: '非消耗型' },
  { value: 'subscription', label: '自动续期订阅' },
] as const;
export type IapProductType = (typeof iapProductTypes)[number]['value'];

/** A purchase receipt's state (内购记录状态). */
export const iapRecordStatuses = [
  { value: 'granted', label: '已发放' },
  { value: 'pending', label: '待验证' },
  { value: 'rejected', label: '已拒绝' },
  { value: 'refunded', label: '已退款' },
] as const;
export type IapRecordStatus = (typeof iapRecordStatuses)[number]['value'];

/** The store environment a receipt came from. */
export const iapEnvironments = [
  { value: 'Production', label: '正式环境' },
  { value: 'Sandbox', label: '沙盒环境' },
] as const;

/** What became of a payment platform's notification (支付通知). */
export const paymentNotificationStatuses = [
  { value: 'applied', label: '已入账' },
  { value: 'duplicate', label: '重复通知' },
  { value: 'ignored', label: '无需处理' },
  { value: 'rejected', label: '已拒绝' },
] as const;

/** A pending order closes by itself this long after it was made. */
export const ORDER_PAY_WINDOW_MS = 30 * 60_000;

/** What an exchange item (兑换商品) gives. */
export const exchangeKinds = [
  { value: 'vip_days', label: '会员天数' },
  { value: 'coins', label: '金币' },
  { value: 'physical', label: '实物' },
  { value: 'code', label: '兑换码' },
] as const;
export type ExchangeKind = (typeof exchangeKinds)[number]['value'];

/** Exchange record states (兑换记录), with the labels operators see. */
export const exchangeStatuses = [
  { value: 'done', label: '已完成' },
  { value: 'waiting', label: '待发货' },
  { value: 'shipped', label: '已发货' },
  { value: 'cancelled', label: '已取消' },
] as const;
export type ExchangeStatus = (typeof exchangeStatuses)[number]['value'];

/** Codes one import may add to a code item. */
export const MAX_CODES_PER_IMPORT = 5000;

/** Review-reward claim states (好评奖励), with the labels operators see. */
export const reviewStatuses = [
  { value: 'pending', label: '待审核' },
  { value: 'approved', label: '已通过' },
  { value: 'rejected', label: '已驳回' },
] as const;

/** Reasons an operator picks from when rejecting a review claim (or types another). */
export const reviewRejectReasons = [
  '截图看不清，请重新上传清晰的截图',
  '截图中没有看到五星好评',
  '截图不是本应用的评价页面',
  '所选应用商店与截图不符',
  '截图疑似重复或经过修改',
] as const;

/** Coins an approved review claim gives until an operator sets the amount. */
export const REVIEW_REWARD_DEFAULT_COINS = 100;

/** Why a sign-in attempt ended as it did, with the label the 登录日志 shows. */
export const loginReasons = [
  { value: 'success', label: '登录成功' },
  { value: 'wrong_password', label: '密码错误' },
  { value: 'unknown_phone', label: '手机号未注册' },
  { value: 'locked', label: '失败次数过多，已锁定' },
  { value: 'blocked', label: '账号已封禁' },
  { value: 'phone_taken', label: '注册时手机号已存在（密码不符）' },
  { value: 'second_factor', label: '密码正确，等待两步验证' },
  { value: 'wrong_code', label: '两步验证码错误或已用过' },
  { value: 'recovery_code', label: '登录成功（使用恢复码）' },
] as const;

/** The users list's status filter: the account states, and 全部 and 管理员 that only the list has. */
export const userListStatuses = [
  { value: 'all', label: '全部' },
  { value: 'normal', label: '正常' },
  { value: 'blocked', label: '已封禁' },
  { value: 'admin', label: '管理员' },
] as const;

/** The users list's VIP segment: VIP time still ahead, lapsed, or never had any. */
export const userVipSegments = [
  { value: 'active', label: '会员有效' },
  { value: 'expired', label: '会员已过期' },
  { value: 'never', label: '从未开通' },
] as const;

/** The 登录日志's result filter, with the labels its select shows. */
export const loginResults = [
  { value: 'all', label: '全部结果' },
  { value: 'success', label: '成功' },
  { value: 'failure', label: '失败' },
] as const;

/** The dashboard's date range presets (docs/spec-notes.md#9-presentation-and-timings): today by hour; week (Monday first), month, year by day. */
export const dashboardRanges = [
  { value: 'today', label: '今日' },
  { value: 'week', label: '本周' },
  { value: 'month', label: '本月' },
  { value: 'year', label: '本年' },
] as const;
export type DashboardRange = (typeof dashboardRanges)[number]['value'];
