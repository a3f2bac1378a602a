import { parse } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../http/context';
import { verifyAlipay } from './alipay';
import { applyPayment } from './apply';
import { verifyWechat } from './wechat';

/**
 * The platforms' notification endpoints. They speak the platforms' formats, not this API's
 * envelope: Alipay posts a form and wants the text `success`; WeChat Pay posts JSON whose exact
 * bytes are signed, and wants HTTP 200/204 (anything else, with `{code: "FAIL"}`, is retried).
 * Registered in their own scope, so their body parsers (raw text) apply to nothing else.
 */
export default async function callbacks(app: FastifyInstance, services: Services): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'application/json'],
    { parseAs: 'string' },
    (_r, body, done) => done(null, body),
  );
  const { db } = services;

  app.post('/api/payment/alipay/notify', async (request, reply) => {
    const alipay = services.config.payments.alipay;
    const body = typeof request.body === 'string' ? request.body : '';
    const fields = Object.fromEntries(
      Object.entries(parse(body)).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')]),
    );
    const claim = alipay
      ? verifyAlipay(alipay, fields)
      : {
          ok: false as const,
          reason: '支付宝未配置（ALIPAY_APP_ID、ALIPAY_PUBLIC_KEY），通知一律拒绝',
          orderNo: null,
          transactionId: null,
          amount: null,
        };
    const { sign: _sign, ...kept } = fields;
    const outcome = await db.transaction().execute((trx) => applyPayment(trx, 'alipay', claim, kept));
    // Alipay resends until it reads `success`; duplicates and payments already applied read it too.
    reply.type('text/plain; charset=utf-8');
    return outcome.status === 'rejected' ? 'fail' : 'success';
  });

  app.post('/api/payment/wechat/notify', async (request, reply) => {
    const wechat = services.config.payments.wechat;
    const body = typeof request.body === 'string' ? request.body : '';
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const claim = wechat
      ? verifyWechat(
          wechat,
          {
            timestamp: header('wechatpay-timestamp'),
            nonce: header('wechatpay-nonce'),
            signature: header('wechatpay-signature'),
            serial: header('wechatpay-serial'),
          },
          body,
        )
      : {
          ok: false as const,
          reason: '微信支付未配置（WECHATPAY_*），通知一律拒绝',
          orderNo: null,
          transactionId: null,
          amount: null,
        };
    const payload = 'payload' in claim ? claim.payload : null;
    const outcome = await db.transaction().execute((trx) => applyPayment(trx, 'wechat', claim, payload));
    if (outcome.status === 'rejected') {
      return reply.status(400).send({ code: 'FAIL', message: outcome.reason ?? '通知被拒绝' });
    }
    return reply.status(204).send();
  });
}
