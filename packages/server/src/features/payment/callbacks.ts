import { parse } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import type { AppRecord } from '../../core/apps';
import { clip } from '../../core/refusals';
import { retriedTransaction } from '../../db/conflicts';
import type { Services } from '../../http/context';
import { type AlipayApp, verifyAlipayFor } from './alipay';
import { applyPayment, type Verifier } from './apply';
import { keepRefusal, NOTIFICATION_MAX_BYTES, REASON_BYTES } from './refusals';
import { verifyWechatFor, type WechatApp } from './wechat';

/**
 * The platforms' notification endpoints. They speak the platforms' formats, not this API's
 * envelope: Alipay posts a form and wants the text `success`; WeChat Pay posts JSON whose exact
 * bytes are signed, and wants HTTP 200/204 (anything else, with `{code: "FAIL"}`, is retried).
 * Registered in their own scope, so their body parsers (raw text) apply to nothing else. Each
 * notification is verified with the settings of the app it names (Alipay's app id, WeChat Pay's
 * platform certificate and AppID) and pays only that app's orders.
 */
export default async function callbacks(app: FastifyInstance, services: Services): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'application/json'],
    { parseAs: 'string' },
    (_r, body, done) => done(null, body),
  );
  const { db, apps: registry } = services;
  /** Every app (disabled ones too: money they took still arrives) with a platform's settings. */
  const configured = async <T>(platform: (app: AppRecord) => T | null): Promise<{ app: AppRecord; settings: T }[]> =>
    (await registry.all()).flatMap((app) => {
      const settings = platform(app);
      return settings ? [{ app, settings }] : [];
    });
  const verifier = (code: string): Verifier => ({ code, nameOf: (c) => registry.nameOf(c) });
  // Real notifications are a few KB; a larger body is answered 413, never parsed or kept.
  const bodyLimit = NOTIFICATION_MAX_BYTES;

  app.post('/api/payment/alipay/notify', { bodyLimit }, async (request, reply) => {
    reply.type('text/plain; charset=utf-8');
    const alipay: AlipayApp[] = (await configured((app) => registry.payments(app).alipay)).map((c) => ({
      code: c.app.code,
      alipay: c.settings,
    }));
    // Off for every app: refused without a write (nobody is meant to call it, so nothing needs a record).
    if (alipay.length === 0) return 'fail';
    const body = typeof request.body === 'string' ? request.body : '';
    const fields = Object.fromEntries(
      Object.entries(parse(body)).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')]),
    );
    const claim = verifyAlipayFor(alipay, fields);
    if (!claim.ok) {
      await keepRefusal(db, { ...claim, method: 'alipay', received: body, ip: request.ip });
      return 'fail';
    }
    const { sign: _sign, ...kept } = fields;
    const app = verifier(claim.app);
    const outcome = await retriedTransaction(db, (trx) => applyPayment(trx, 'alipay', claim, kept, app));
    // Alipay resends until it reads `success`; duplicates and payments already applied read it too.
    return outcome.status === 'rejected' ? 'fail' : 'success';
  });

  app.post('/api/payment/wechat/notify', { bodyLimit }, async (request, reply) => {
    const refuse = (reason: string) => reply.status(400).send({ code: 'FAIL', message: reason });
    const wechat: WechatApp[] = (await configured((app) => registry.payments(app).wechat)).map((c) => ({
      code: c.app.code,
      appId: c.app.wechatAppId,
      wechat: c.settings,
    }));
    if (wechat.length === 0) return refuse('微信支付未配置（WECHATPAY_*），通知一律拒绝');
    const body = typeof request.body === 'string' ? request.body : '';
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const claim = verifyWechatFor(
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
    const app = verifier(claim.app);
    const outcome = await retriedTransaction(db, (trx) =>
      applyPayment(trx, 'wechat', claim, claim.payload ?? null, app),
    );
    if (outcome.status === 'rejected') return refuse(outcome.reason ?? '通知被拒绝');
    return reply.status(204).send();
  });
}
