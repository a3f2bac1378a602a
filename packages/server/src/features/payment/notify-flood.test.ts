/**
 * Disk filling through the payment notification routes (issue 26): anyone may post to them, so
 * what a refused notification leaves behind is bounded in size and rate, and nothing at all when
 * the method is not configured.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../../../test/disk';
import { startServer, type TestServer } from '../../../test/harness';
import { makePaymentKeys } from '../../../test/payment-signers';
import { EXCERPT_BYTES, REFUSED_PER_ADDRESS_PER_HOUR, REFUSED_PER_HOUR } from './refusals';

const keys = makePaymentKeys();
const configured = {
  apple: null,
  alipay: { appId: keys.alipayAppId, publicKey: keys.alipayPublicKey },
  wechat: {
    mchId: keys.wechatMchId,
    apiV3Key: keys.wechatApiV3Key,
    platformPublicKey: keys.wechatPublicKey,
    platformSerial: keys.wechatSerial,
  },
};

const MB = 1_000_000;

/** A forged Alipay form of about `bytes`: plausible fields, a made-up signature, and filler. */
const forgedAlipay = (bytes: number) =>
  new URLSearchParams({
    app_id: keys.alipayAppId,
    out_trade_no: `2026112300000${'9'.repeat(400)}`,
    trade_no: 'x'.repeat(400),
    total_amount: '18.00',
    trade_status: 'TRADE_SUCCESS',
    sign: randomBytes(256).toString('base64'),
    sign_type: 'RSA2',
    body: '测'.repeat(Math.max(0, Math.floor(bytes / 9))),
  }).toString();

/** A forged WeChat Pay callback of about `bytes`: signed-looking headers and a JSON body with filler. */
const forgedWechat = (bytes: number) => ({
  body: JSON.stringify({ id: 'forged', resource: { ciphertext: 'A'.repeat(bytes), nonce: 'n', associated_data: '' } }),
  headers: {
    'content-type': 'application/json',
    'wechatpay-timestamp': String(Math.floor(Date.now() / 1000)),
    'wechatpay-nonce': 'nonce',
    'wechatpay-signature': randomBytes(256).toString('base64'),
    'wechatpay-serial': 'S'.repeat(4000),
  },
});

type Sent = { status: number; text: string };
const post = async (server: TestServer, path: string, body: string, headers: Record<string, string>) => {
  try {
    const r = await fetch(`${server.url}${path}`, { method: 'POST', headers, body });
    return { status: r.status, text: await r.text() };
  } catch {
    // A server may close a connection whose body it refused before reading it all.
    return { status: 0, text: '' };
  }
};
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** 100 copies of each kind, 10 at a time: 1 MB and just under the routes' body limit, to both routes. */
async function flood(server: TestServer): Promise<Sent[]> {
  const kinds: (() => Promise<Sent>)[] = [];
  const alipayBig = forgedAlipay(MB);
  const alipaySmall = forgedAlipay(48_000);
  const big = forgedWechat(MB);
  const small = forgedWechat(48_000);
  for (let i = 0; i < 100; i++) {
    kinds.push(
      () => post(server, '/api/payment/alipay/notify', alipayBig, form),
      () => post(server, '/api/payment/alipay/notify', alipaySmall, form),
      () => post(server, '/api/payment/wechat/notify', big.body, big.headers),
      () => post(server, '/api/payment/wechat/notify', small.body, small.headers),
    );
  }
  const answers: Sent[] = [];
  for (let i = 0; i < kinds.length; i += 10)
    answers.push(...(await Promise.all(kinds.slice(i, i + 10).map((k) => k()))));
  return answers;
}

const kept = (server: TestServer) =>
  server.app.services.db
    .selectFrom('payment_notifications')
    .select(['method', 'status', 'reason', 'payload'])
    .execute();

describe('forged notifications from anyone', () => {
  const servers: TestServer[] = [];
  // Two fresh servers (each migrates its own database): longer than one hook's usual allowance on a busy machine.
  beforeAll(async () => {
    servers.push(
      ...(await Promise.all([
        startServer({ payments: configured }),
        startServer({ payments: { apple: null, alipay: null, wechat: null } }),
      ])),
    );
  }, 90_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('configured: 100 × 1 MB and 100 × 48 KB to each route grow the data by under 1 MB; a few short excerpts are kept', {
    timeout: 90_000,
  }, async () => {
    const server = servers[0] as TestServer;
    const before = await storedBytes(server);
    const answers = await flood(server);
    const grown = (await storedBytes(server)) - before;
    expect(grown).toBeLessThan(MB);
    // Every answer refuses in the platform's own terms (or is the body limit's 413): none is a 5xx.
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const small = answers.filter((a) => a.status !== 413 && a.status !== 0);
    expect(small.length).toBe(200);
    for (const a of small) {
      if (a.text === 'fail') continue;
      expect(a.status).toBe(400);
      expect(JSON.parse(a.text)).toMatchObject({ code: 'FAIL' });
    }
    const rows = await kept(server);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(REFUSED_PER_ADDRESS_PER_HOUR);
    for (const row of rows) {
      expect(row.status).toBe('rejected');
      expect(Buffer.byteLength(row.payload ?? '')).toBeLessThanOrEqual(EXCERPT_BYTES);
      expect(Buffer.byteLength(row.reason ?? '')).toBeLessThanOrEqual(EXCERPT_BYTES);
    }
    expect(rows.map((r) => r.reason)).toContain('支付宝签名验证失败');
  });

  it('not configured: the same flood writes nothing at all', { timeout: 90_000 }, async () => {
    const server = servers[1] as TestServer;
    const before = await storedBytes(server);
    const answers = await flood(server);
    expect((await storedBytes(server)) - before).toBeLessThan(MB);
    expect(await kept(server)).toEqual([]);
    const alipay = answers.filter((a) => a.text === 'fail');
    expect(alipay.length).toBe(100);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
  });
});

describe('refused notifications from many addresses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ payments: configured, trustProxy: 1 });
  });
  afterAll(async () => {
    await server.close();
  });

  it(`are kept at most ${REFUSED_PER_HOUR} an hour in all, and then refused without a write`, async () => {
    const addresses = Math.ceil(REFUSED_PER_HOUR / REFUSED_PER_ADDRESS_PER_HOUR) + 2;
    const body = forgedAlipay(500);
    for (let a = 0; a < addresses; a++) {
      const from = { ...form, 'x-forwarded-for': `198.51.100.${a + 1}` };
      const answers = await Promise.all(
        Array.from({ length: REFUSED_PER_ADDRESS_PER_HOUR + 2 }, () =>
          post(server, '/api/payment/alipay/notify', body, from),
        ),
      );
      expect(answers.map((x) => x.text)).toEqual(Array(REFUSED_PER_ADDRESS_PER_HOUR + 2).fill('fail'));
    }
    expect((await kept(server)).length).toBe(REFUSED_PER_HOUR);
    const page = await server.call('/api/payment/fetch/page', { status: 'rejected' }, (await server.initAdmin()).token);
    expect((page.body.data as { total: number }).total).toBe(REFUSED_PER_HOUR);
  });
});
