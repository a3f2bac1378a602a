import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../../../test/disk';
import { startServer, type TestServer } from '../../../test/harness';
import { makeTestChain } from '../../../test/storekit-chain';

// Anyone can reach the App Store notification endpoint: what a forged notification makes the
// server keep must stay small and bounded per address, configured or not.
const chain = makeTestChain();
const bundleId = 'com.example.tailor';
const MB = 1_000_000;
const apple = { bundleId, appAppleId: 1234, environments: ['Sandbox' as const], rootCertificates: [chain.rootDer] };

/**
 * A forged notification (signed by a key outside the chain) as large as the endpoint takes, its
 * bulk random (PostgreSQL would compress a repeated letter to almost nothing).
 */
function largestForgery(): string {
  const noise = randomBytes(60_000).toString('base64url');
  const claimed = (junk: number) => ({
    notificationType: 'DID_RENEW',
    notificationUUID: randomUUID(),
    data: { bundleId, environment: 'Sandbox', signedTransactionInfo: noise.slice(0, junk) },
  });
  let junk = 75_000;
  let jws = chain.signWithWrongKey(claimed(junk));
  while (jws.length > 100_000) {
    junk -= 1_000;
    jws = chain.signWithWrongKey(claimed(junk));
  }
  return jws;
}

async function flood(server: TestServer) {
  const forgery = largestForgery();
  expect(forgery.length).toBeGreaterThan(95_000);
  const bodies = [
    ...Array.from({ length: 100 }, () => JSON.stringify({ signedPayload: forgery })),
    // 1 MB bodies: over the field's limit, refused before any work.
    ...Array.from({ length: 100 }, () => JSON.stringify({ signedPayload: 'y'.repeat(MB - 20) })),
  ];
  const before = await storedBytes(server);
  const codes: number[] = [];
  for (let i = 0; i < bodies.length; i += 10) {
    const batch = bodies.slice(i, i + 10).map((body) =>
      server.raw('/api/iaprecord/apple/notify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    for (const answer of await Promise.all(batch)) {
      expect(answer.status).toBeLessThan(500);
      codes.push(answer.body.code);
    }
  }
  const grown = (await storedBytes(server)) - before;
  console.info(`stored bytes grew by ${grown}`);
  return { grown, codes };
}

const notifications = (server: TestServer) =>
  server.app.services.db.selectFrom('iap_notifications').select(['status', 'type', 'payload']).execute();

describe('forged App Store notifications', () => {
  let server: TestServer;
  let bare: TestServer;
  beforeAll(async () => {
    server = await startServer({ payments: { apple, alipay: null, wechat: null } });
    bare = await startServer({ payments: { apple: null, alipay: null, wechat: null } });
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await bare?.close();
  });

  it('configured: 100 of the largest accepted and 100 of 1 MB grow the stored data by < 1 MB', async () => {
    const { grown, codes } = await flood(server);
    expect(codes.filter((c) => c === 200)).toHaveLength(100);
    expect(grown).toBeLessThan(MB);
    const kept = await notifications(server);
    // Refused ones keep a small excerpt, a few per address.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(10);
    for (const row of kept) {
      expect(row.status).toBe('rejected');
      expect((row.payload ?? '').length).toBeLessThan(1_000);
    }
  }, 120_000);

  it('not configured: refused without writing anything', async () => {
    const { grown, codes } = await flood(bare);
    expect(codes.filter((c) => c === 200)).toHaveLength(100);
    expect(grown).toBeLessThan(MB);
    expect(await notifications(bare)).toEqual([]);
    const answer = await bare.call('/api/iaprecord/apple/notify', { signedPayload: largestForgery() });
    expect(answer.body.data).toMatchObject({ status: 'rejected' });
    expect(JSON.stringify(answer.body)).not.toMatch(/APPLE_/);
  }, 120_000);
});
