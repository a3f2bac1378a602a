import { iapEnvironments } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';

/** Store environments in words (Google Play's licence-testing purchases say Test). */
const environments = [...iapEnvironments, { value: 'Test', label: '测试购买' }] as const;
export const environmentLabel = (value: string | null): string => (value ? labelOf(environments, value) : '-');

/** App Store Server Notification V2 types in words; an unknown one is shown as Apple names it. */
const notificationTypes: Record<string, string> = {
  CONSUMPTION_REQUEST: '退款前的消费信息请求',
  DID_CHANGE_RENEWAL_PREF: '更改续订方案',
  DID_CHANGE_RENEWAL_STATUS: '开启或关闭自动续订',
  DID_FAIL_TO_RENEW: '续订扣款失败',
  DID_RENEW: '续订成功',
  EXPIRED: '订阅到期',
  GRACE_PERIOD_EXPIRED: '宽限期结束',
  OFFER_REDEEMED: '兑换优惠',
  ONE_TIME_CHARGE: '一次性购买',
  PRICE_INCREASE: '涨价通知',
  REFUND: '退款',
  REFUND_DECLINED: '退款被拒',
  REFUND_REVERSED: '退款撤回',
  RENEWAL_EXTENDED: '延长订阅',
  RENEWAL_EXTENSION: '批量延长订阅',
  REVOKE: '家庭共享撤销',
  SUBSCRIBED: '订阅',
  TEST: '测试通知',
};
export const notificationTypeLabel = (type: string): string => notificationTypes[type] ?? type;

const notificationSubtypes: Record<string, string> = {
  INITIAL_BUY: '首次购买',
  RESUBSCRIBE: '重新订阅',
  UPGRADE: '升级',
  DOWNGRADE: '降级',
  AUTO_RENEW_ENABLED: '开启自动续订',
  AUTO_RENEW_DISABLED: '关闭自动续订',
  VOLUNTARY: '用户取消',
  BILLING_RETRY: '扣款重试未成功',
  PRICE_INCREASE: '未同意涨价',
  PRODUCT_NOT_FOR_SALE: '商品已下架',
  GRACE_PERIOD: '宽限期内',
  BILLING_RECOVERY: '扣款恢复',
  PENDING: '待用户同意',
  ACCEPTED: '用户已同意',
  SUMMARY: '汇总',
  FAILURE: '失败',
};
/** A notification's type and subtype in words, e.g. 订阅（首次购买）. */
export const notificationLabel = (type: string, subtype: string | null): string =>
  subtype
    ? `${notificationTypeLabel(type)}（${notificationSubtypes[subtype] ?? subtype}）`
    : notificationTypeLabel(type);

/** How a notification was handled, in words. */
export const notificationStatusLabels: Record<string, string> = {
  received: '处理中',
  applied: '已处理',
  duplicate: '重复通知，未重复处理',
  ignored: '无需处理',
  rejected: '已拒绝',
};

/**
 * What the page says about each store's verification. The operator reads what is missing in
 * words; the deployment notes (README) name the server settings.
 */
export function verificationNotice(c: { apple: boolean; appleEnvironments: string[]; google: boolean }): string {
  const apple = c.apple
    ? `App Store 收据离线验证已开启（接受环境：${c.appleEnvironments.map((e) => environmentLabel(e)).join('、')}）。`
    : 'App Store 校验未配置（服务器缺少 Bundle ID 与 Apple 根证书，见部署说明），iOS 收据记为待验证、不发放权益。';
  const google = c.google
    ? 'Google Play 购买经 Google Play 接口验证后发放，并由服务器向 Google Play 确认。'
    : 'Google Play 校验未配置（服务器缺少 Google Play 服务账号，见部署说明），安卓购买记为待验证，请在 Google Play 管理中心核对。';
  return `${apple}${google}`;
}
