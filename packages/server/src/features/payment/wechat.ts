import { createDecipheriv, createVerify } from 'node:crypto';
import type { PaymentsConfig } from '../../payments-config';
import type { AppClaim, Claim, Refused } from './apply';

type Wechat = NonNullable<PaymentsConfig['wechat']>;
/** An app that takes WeChat Pay: its settings, and its WeChat AppID when the console sets one. */
export interface WechatApp {
  code: string;
  appId: string;
  wechat: Wechat;
}

/** How far a callback's timestamp may be from now (WeChat Pay's own advice: 5 minutes). */
const MAX_SKEW_S = 300;

export interface WechatHeaders {
  timestamp?: string;
  nonce?: string;
  signature?: string;
  serial?: string;
}

interface Resource {
  algorithm?: string;
  ciphertext?: string;
  associated_data?: string;
  nonce?: string;
}

/** AEAD_AES_256_GCM with the APIv3 key: the ciphertext ends with the 16-byte tag. */
export function decryptResource(apiV3Key: string, r: Resource): Record<string, unknown> {
  const data = Buffer.from(r.ciphertext ?? '', 'base64');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(r.nonce ?? '', 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
  const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
}

/**
 * A WeChat Pay API v3 callback: the signature (SHA256withRSA by the platform key) covers
 * `timestamp\nnonce\nbody\n`, over the body exactly as it arrived; the transaction is in the
 * AES-256-GCM encrypted `resource`. With `appId`, the transaction must be that app's.
 */
export function verifyWechat(
  wechat: Wechat,
  headers: WechatHeaders,
  body: string,
  appId = '',
): Claim & { payload?: unknown } {
  const none = { orderNo: null, transactionId: null, amount: null };
  const { timestamp, nonce, signature, serial } = headers;
  if (!timestamp || !nonce || !signature) return { ...none, ok: false, reason: '缺少微信支付签名头' };
  if (wechat.platformSerial && serial !== wechat.platformSerial) {
    return { ...none, ok: false, reason: `平台证书序列号不符：${serial ?? '无'}` };
  }
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_S || !/^\d+$/.test(timestamp)) {
    return { ...none, ok: false, reason: '通知时间戳超出 5 分钟' };
  }
  let valid = false;
  try {
    valid = createVerify('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8')
      .verify(wechat.platformPublicKey, signature, 'base64');
  } catch {
    valid = false;
  }
  if (!valid) return { ...none, ok: false, reason: '微信支付签名验证失败' };
  let tx: Record<string, unknown>;
  try {
    const event = JSON.parse(body) as { resource?: Resource };
    tx = decryptResource(wechat.apiV3Key, event.resource ?? {});
  } catch {
    return { ...none, ok: false, reason: '通知资源无法解密（APIv3 密钥不符或内容被篡改）' };
  }
  const amount = (tx.amount as { total?: unknown } | undefined)?.total;
  const claim = {
    orderNo: typeof tx.out_trade_no === 'string' ? tx.out_trade_no : null,
    transactionId: typeof tx.transaction_id === 'string' ? tx.transaction_id : null,
    amount: Number.isSafeInteger(amount) ? (amount as number) : null,
    payload: tx,
  };
  if (tx.mchid !== wechat.mchId) return { ...claim, ok: false, reason: `商户号不符：${String(tx.mchid ?? '无')}` };
  if (appId && tx.appid !== appId)
    return { ...claim, ok: false, reason: `应用 AppID 不符：${String(tx.appid ?? '无')}` };
  return { ...claim, ok: true, paid: tx.trade_state === 'SUCCESS', state: String(tx.trade_state ?? '') };
}

/**
 * A callback checked against the apps that take WeChat Pay, those whose platform certificate
 * serial is the one it names first: it is the first app whose platform key signed it, whose APIv3
 * key decrypts it and whose merchant and AppID the transaction names (apps may share a merchant,
 * and then its AppID tells them apart). Refused when none is; the reason is the one of the app it
 * came closest to.
 */
export function verifyWechatFor(
  apps: WechatApp[],
  headers: WechatHeaders,
  body: string,
): AppClaim & { payload?: unknown } {
  const serialOf = (a: WechatApp) => a.wechat.platformSerial;
  const candidates = [
    ...apps.filter((a) => serialOf(a) && serialOf(a) === headers.serial),
    ...apps.filter((a) => !serialOf(a)),
  ];
  let closest: Refused | undefined;
  for (const { code, appId, wechat } of candidates) {
    const claim = verifyWechat(wechat, headers, body, appId);
    if (claim.ok) return { ...claim, app: code };
    // Decrypted (it names an order) is closer than a signature or key that did not fit.
    if (!closest || (closest.orderNo === null && claim.orderNo !== null)) closest = claim;
  }
  if (closest) return { ...closest, app: null };
  return {
    orderNo: null,
    transactionId: null,
    amount: null,
    ok: false,
    reason: `平台证书序列号不符：${headers.serial ?? '无'}`,
    app: null,
  };
}
