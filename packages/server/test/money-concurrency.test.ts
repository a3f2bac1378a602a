/**
 * Concurrent money writes (issue 26, done-when 3): ten clients mixing VIP redemptions, orders paid
 * by an operator and orders paid by signed Alipay / WeChat Pay notifications, on five shared users.
 * On PostgreSQL these paths used to take the user row, the ledgers and the kept counters in
 * different orders and deadlock (HTTP 500). No answer may be a 500; every acknowledged write is
 * there once; balances equal their ledgers. MONEY_MIX_SECONDS sets the run's length (8 s);
 * bench/money.ts runs it longer and compares the rate with each kind alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { type MoneySite, moneyProblems, prepareMoneySite, runMoneyMix } from './money-mix';
import { makePaymentKeys } from './payment-signers';

const seconds = Number(process.env.MONEY_MIX_SECONDS ?? 8);
const keys = makePaymentKeys();

let server: TestServer;
let site: MoneySite;
beforeAll(async () => {
  server = await startServer({
    payments: {
      apple: null,
      alipay: { appId: keys.alipayAppId, publicKey: keys.alipayPublicKey },
      wechat: {
        mchId: keys.wechatMchId,
        apiV3Key: keys.wechatApiV3Key,
        platformPublicKey: keys.wechatPublicKey,
        platformSerial: keys.wechatSerial,
      },
    },
  });
  const admin = (await server.initAdmin()).token;
  site = await prepareMoneySite(server.url, admin, keys);
});
afterAll(() => server.close());

describe('concurrent money writes', () => {
  it(
    `ten clients mixing redemptions, paid orders and payment notifications for ${seconds} s: no 500, nothing lost or doubled`,
    async () => {
      const run = await runMoneyMix(site, { seconds, clients: 10 });
      console.log(
        `money mix: ${run.calls} calls in ${seconds} s (${(run.calls / seconds).toFixed(0)}/s), done ${JSON.stringify(run.done)}, ` +
          `503 resent ${run.unavailable}, 500 ${run.http500}`,
      );
      expect(run.unexpected.slice(0, 10)).toEqual([]);
      expect(run.http500).toBe(0);
      // Every kind made progress.
      expect(run.done.redeem).toBeGreaterThan(0);
      expect(run.done.order).toBeGreaterThan(0);
      expect(run.done.notify).toBeGreaterThan(0);
      expect(await moneyProblems(server.app.services.db, run)).toEqual([]);
    },
    seconds * 1000 + 60_000,
  );
});
