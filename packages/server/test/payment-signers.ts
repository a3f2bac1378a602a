import { createCipheriv, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * Alipay and WeChat Pay notifications signed with keys of the test's own (configured as the
 * platforms' public keys), built as the platforms build them.
 */
export interface PaymentKeys {
  alipayAppId: string;
  alipayPrivateKey: string;
  alipayPublicKey: string;
  wechatMchId: string;
  wechatAppId: string;
  wechatApiV3Key: string;
  wechatSerial: string;
  wechatPrivateKey: string;
  wechatPublicKey: string;
}

/** Another app's keys: its own identities (a second app, `quote`, beside the first's). */
type Identities = Partial<Pick<PaymentKeys, 'alipayAppId' | 'wechatMchId' | 'wechatAppId' | 'wechatSerial'>>;

export function makePaymentKeys(identities: Identities = {}): PaymentKeys {
  const pair = () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    };
  };
  const alipay = pair();
  const wechat = pair();
  return {
    alipayAppId: '2021000000000001',
    alipayPrivateKey: alipay.privateKey,
    alipayPublicKey: alipay.publicKey,
    wechatMchId: '1900000001',
    wechatApiV3Key: randomBytes(16).toString('hex'),
    wechatSerial: 'SERIAL01',
    wechatPrivateKey: wechat.privateKey,
    wechatPublicKey: wechat.publicKey,
    wechatAppId: 'wx0000000000000001',
    ...identities,
  };
}

/** Another key than the configured one (a forged signature). */
export const strangerKey = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

/** The fields of an Alipay TRADE_SUCCESS notification for an order (amount in yuan, as Alipay sends it). */
export const alipayFields = (keys: PaymentKeys, orderNo: string, amount: string) => ({
  notify_time: '2026-11-23 12:00:00',
  notify_type: 'trade_status_sync',
  notify_id: randomBytes(8).toString('hex'),
  app_id: keys.alipayAppId,
  charset: 'utf-8',
  version: '1.0',
  trade_no: `2026112322001${orderNo.slice(-8)}`,
  out_trade_no: orderNo,
  total_amount: amount,
  trade_status: 'TRADE_SUCCESS',
});

/** The form body Alipay posts: the fields sorted and signed with RSA2. */
export function alipayBody(fields: Record<string, string>, privateKey: string) {
  const content = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
  const sign = createSign('RSA-SHA256').update(content).sign(privateKey, 'base64');
  return new URLSearchParams({ ...fields, sign, sign_type: 'RSA2' }).toString();
}

/** A WeChat Pay v3 TRADE SUCCESS callback for an order (amount in fen): encrypted resource, signed headers. */
export function wechatCallback(keys: PaymentKeys, orderNo: string, total: number, privateKey = keys.wechatPrivateKey) {
  const tx = {
    mchid: keys.wechatMchId,
    appid: keys.wechatAppId,
    out_trade_no: orderNo,
    transaction_id: `42000${orderNo.slice(-10)}`,
    trade_type: 'APP',
    trade_state: 'SUCCESS',
    success_time: '2026-11-23T12:00:00+08:00',
    amount: { total, payer_total: total, currency: 'CNY', payer_currency: 'CNY' },
  };
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keys.wechatApiV3Key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from('transaction'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(tx)), cipher.final(), cipher.getAuthTag()]);
  const body = JSON.stringify({
    id: randomBytes(8).toString('hex'),
    create_time: '2026-11-23T12:00:01+08:00',
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: ciphertext.toString('base64'),
      associated_data: 'transaction',
      nonce,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headerNonce = randomBytes(8).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestamp}\n${headerNonce}\n${body}\n`)
    .sign(privateKey, 'base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': headerNonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': keys.wechatSerial,
    },
  };
}
