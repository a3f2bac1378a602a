import { parse } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import { clip } from '../../core/refusals';
import { retriedTransaction } from '../../db/conflicts';
import type { Services } from '../../http/context';
import { verifyAlipay } from './alipay';
import { applyPayment } from './apply';
import { keepRefusal, NOTIFICATION_MAX_BYTES, REASON_BYTES } from './refusals';
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
  // Real notifications are a few KB; a larger body is answered 413, never parsed or kept.
  const bodyLimit = NOTIFICATION_MAX_BYTES;

  app.post('/api/payment/alipay/notify', { bodyLimit }, async (request, reply) => {
    reply.type('text/plain; charset=utf-8');
    const alipay = services.config.payments.alipay;
    // Off: refused without a write (nobody is meant to call it, so nothing needs a record).
    if (!alipay) return 'fail';
    const body = typeof request.body === 'string' ? request.body : '';
    const fields = Object.fromEntries(
      Object.entries(parse(body)).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')]),
    );
    const claim = verifyAlipay(alipay, fields);
    if (!claim.ok) {
      await keepRefusal(db, { ...claim, method: 'alipay', received: body, ip: request.ip });
      return 'fail';
    }
    const { sign: _sign, ...kept } = fields;
    const outcome = await retriedTransaction(db, (trx) => applyPayment(trx, 'alipay', claim, kept));
    // Alipay resends until it reads `success`; duplicates and payments already applied read it too.
    return outcome.status === 'rejected' ? 'fail' : 'success';
  });

  app.post('/api/payment/wechat/notify', { bodyLimit }, async (request, reply) => {
    const refuse = (reason: string) => reply.status(400).send({ code: 'FAIL', message: reason });
    const wechat = services.config.payments.wechat;
    if (!wechat) return refuse('微信支付未配置（WECHATPAY_*），通知一律拒绝');
    const body = typeof request.body === 'string' ? request.body : '';
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const claim = verifyWechat(
      wechat,
      {
        timestamp: header('wechatpay-timestamp'),
        nonce: header('wechatpay-nonce'),
        signature: header('wechatpay-signature'),
        serial: header('wechatpay-serial'),
      },
      body,
    );
    if (!claim.ok) {
      await keepRefusal(db, { ...claim, method: 'wechat', received: body, ip: request.ip });
      return refuse(clip(claim.reason, REASON_BYTES));
    }
    const outcome = await retriedTransaction(db, (trx) => applyPayment(trx, 'wechat', claim, claim.payload ?? null));
    if (outcome.status === 'rejected') return refuse(outcome.reason ?? '通知被拒绝');
    return reply.status(204).send();
  });
}
