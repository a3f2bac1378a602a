import { createVerify } from 'node:crypto';
import { yuanTextToFen } from '@appdesk/contract/format';
import type { PaymentsConfig } from '../../payments-config';
import type { Claim } from './apply';

type Alipay = NonNullable<PaymentsConfig['alipay']>;

/**
 * Alipay's RSA2 asynchronous notification (form fields): every field but `sign` and `sign_type`,
 * sorted by name, joined as `k=v` with `&`, signed with SHA256withRSA by Alipay's key. alipay-sdk
 * 4 verifies the same way but refuses to start without the merchant's private key, which checking
 * a notification never needs, so the check is this one function.
 */
export function verifyAlipay(alipay: Alipay, fields: Record<string, string>): Claim {
  const content = Object.keys(fields)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && fields[k] !== '')
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
  const claim = {
    orderNo: fields.out_trade_no || null,
    transactionId: fields.trade_no || null,
    amount: fields.total_amount ? yuanTextToFen(fields.total_amount) : null,
  };
  if (!fields.sign) return { ...claim, ok: false, reason: '缺少签名' };
  if ((fields.sign_type ?? 'RSA2') !== 'RSA2') return { ...claim, ok: false, reason: '只接受 RSA2 签名' };
  let valid = false;
  try {
    valid = createVerify('RSA-SHA256').update(content, 'utf8').verify(alipay.publicKey, fields.sign, 'base64');
  } catch {
    valid = false;
  }
  if (!valid) return { ...claim, ok: false, reason: '支付宝签名验证失败' };
  if (fields.app_id !== alipay.appId) return { ...claim, ok: false, reason: `应用 ID 不符：${fields.app_id ?? '无'}` };
  const paid = fields.trade_status === 'TRADE_SUCCESS' || fields.trade_status === 'TRADE_FINISHED';
  return { ...claim, ok: true, paid, state: fields.trade_status ?? '' };
}
