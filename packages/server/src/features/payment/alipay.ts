import { createVerify } from 'node:crypto';
import { yuanTextToFen } from '@appdesk/contract/format';
import type { PaymentsConfig } from '../../payments-config';
import type { AppClaim, Claim, Refused } from './apply';

type Alipay = NonNullable<PaymentsConfig['alipay']>;
/** An app that takes Alipay, with its settings. */
export interface AlipayApp {
  code: string;
  alipay: Alipay;
}

/** What a notification claims, before anything is checked. */
const claimOf = (fields: Record<string, string>) => ({
  orderNo: fields.out_trade_no || null,
  transactionId: fields.trade_no || null,
  amount: fields.total_amount ? yuanTextToFen(fields.total_amount) : null,
});

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
  const claim = claimOf(fields);
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

/**
 * A notification checked against the app whose Alipay app id it names: only that app's key may
 * have signed it, so one signed with another app's key, or naming an app id no app has, is
 * refused. Answers the app it verified for.
 */
export function verifyAlipayFor(apps: AlipayApp[], fields: Record<string, string>): AppClaim {
  let refused: Refused | undefined;
  for (const { code, alipay } of apps.filter((a) => a.alipay.appId === fields.app_id)) {
    const claim = verifyAlipay(alipay, fields);
    if (claim.ok) return { ...claim, app: code };
    refused ??= claim;
  }
  return refused
    ? { ...refused, app: null }
    : { ...claimOf(fields), ok: false, reason: `应用 ID 不符：${fields.app_id || '无'}`, app: null };
}
