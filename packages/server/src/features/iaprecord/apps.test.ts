/**
 * StoreKit receipts and App Store notifications per app (issue 29, done-when 2): each is verified
 * with the App Store settings of its app. `tailor` keeps its settings in the environment; `quote`
 * is registered through the console; both trust the environment's root certificates. Google Play
 * purchases are verified for the app's package as the app's own service account (each played back
 * by its own fake Google, which only knows its own account's purchases).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlayFake, productPurchase, startPlayFake } from '../../../test/google-play';
import { startServer, type TestServer } from '../../../test/harness';
import { makeTestChain } from '../../../test/storekit-chain';
import { unreconciledUsers } from '../../core/ledger';
import { secretKeysFromEnv } from '../../core/secret-box';

const chain = makeTestChain();
const bundles = { tailor: 'com.example.tailor', quote: 'com.appdesk.quote' } as const;
const products = { tailor: 'com.example.coins.100', quote: 'com.appdesk.quote.coins' } as const;
type AppCode = keyof typeof bundles;

let server: TestServer;
let admin: string;
const play: Record<AppCode, PlayFake> = {} as never;
beforeAll(async () => {
  play.tailor = await startPlayFake();
  play.quote = await startPlayFake();
  server = await startServer({
    secretKeys: secretKeysFromEnv({ APPDESK_SECRETS_KEY: randomBytes(32).toString('base64') }),
    payments: {
      appleRootCertificates: [chain.rootDer],
      // Where every app's Google Play API is reached (a gateway); the token endpoint is the key file's.
      googlePlayApiUrl: play.quote.config.apiUrl,
      google: play.tailor.config,
      apple: {
        bundleId: bundles.tailor,
        appAppleId: 1234,
        environments: ['Sandbox'],
        rootCertificates: [chain.rootDer],
      },
      alipay: null,
      wechat: null,
    },
  });
  admin = (await server.initAdmin()).token;
  for (const app of [
    {
      code: 'quote',
      name: '名言',
      iosBundleId: bundles.quote,
      androidPackage: 'com.appdesk.quote',
      appleAppId: '1234567',
      appleEnvironments: ['Sandbox'],
    },
    { code: 'poster', name: '海报' },
  ]) {
    const made = await server.call('/api/apps/make', app, admin);
    expect([made.body.code, made.body.message]).toEqual([200, made.body.message]);
  }
  const { config } = play.quote;
  const serviceAccount = JSON.stringify({
    client_email: config.clientEmail,
    private_key: config.privateKey,
    token_uri: config.tokenUrl,
  });
  const set = await server.call(
    '/api/apps/secret/set',
    { id: 2, kind: 'googleServiceAccount', value: serviceAccount },
    admin,
  );
  expect([set.body.code, set.body.message]).toEqual([200, set.body.message]);
  // Each app sells its own product; quote's grants 50 coins, tailor's 100.
  for (const [app, coins] of [
    ['tailor', 100],
    ['quote', 50],
  ] as const) {
    for (const platform of ['ios', 'android']) {
      const product = { app, platform, productId: products[app], type: 'consumable', name: '金币', price: 600 };
      const made = await server.call('/api/iap/make', { ...product, vipDays: 0, coins }, admin);
      expect([made.body.code, made.body.message]).toEqual([200, made.body.message]);
    }
  }
});
afterAll(async () => {
  await server?.close();
  for (const fake of Object.values(play)) await fake.close();
});

type Posted = { record: { id: number; app: string; status: string; reason: string | null }; duplicate: boolean };
const db = () => server.app.services.db;
let serial = 7_000_000;
const transaction = (app: AppCode, fields: object = {}) => {
  serial += 1;
  const now = Date.now();
  return {
    transactionId: String(serial),
    originalTransactionId: String(serial),
    bundleId: bundles[app],
    productId: products[app],
    purchaseDate: now,
    signedDate: now,
    environment: 'Sandbox',
    type: 'Consumable',
    inAppOwnershipType: 'PURCHASED',
    ...fields,
  };
};
const appUser = async () => {
  const user = await server.addUser();
  return { ...user, token: await server.login(user.phone, user.password) };
};
/** The app's post; `app` absent is an old client of the first app. */
const post = async (token: string, signedTransaction: string, app?: AppCode) => {
  const answer = await server.call('/api/iaprecord/apple', { signedTransaction, ...(app ? { app } : {}) }, token);
  expect(answer.body.code, answer.text).toBe(200);
  return answer.body.data as Posted;
};
const coins = async (id: number) =>
  Number(
    (await db().selectFrom('users').select('coins').where('id', '=', id).executeTakeFirstOrThrow()).coins as number,
  );
const notify = async (type: string, bundleId: string, tx: object) => {
  const signedPayload = chain.sign({
    notificationType: type,
    notificationUUID: randomUUID(),
    version: '2.0',
    signedDate: Date.now(),
    data: { bundleId, environment: 'Sandbox', signedTransactionInfo: chain.sign(tx) },
  });
  const answer = await server.call('/api/iaprecord/apple/notify', { signedPayload });
  expect(answer.body.code).toBe(200);
  return answer.body.data as { status: string; reason: string | null };
};
const WRONG_APP = 'Bundle ID 或 App Apple ID 与配置不符';

describe('StoreKit transactions per app', () => {
  it("one signed for quote's bundle grants in quote once, however many copies race", async () => {
    const user = await appUser();
    const signed = chain.sign(transaction('quote'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(user.token, signed, 'quote')));
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.record.id)).size).toBe(1);
    expect(answers[0].record).toMatchObject({ app: 'quote', status: 'granted' });
    expect(await post(user.token, signed, 'quote')).toMatchObject({ duplicate: true });
    expect(await coins(user.id)).toBe(50);
    expect(await unreconciledUsers(db())).toEqual([]);
  });

  it("is refused for tailor, and tailor's is refused for quote: nothing granted", async () => {
    const user = await appUser();
    const quoteSigned = chain.sign(transaction('quote'));
    for (const app of ['tailor', undefined] as const) {
      expect((await post(user.token, quoteSigned, app)).record).toMatchObject({
        app: 'tailor',
        status: 'rejected',
        reason: WRONG_APP,
      });
    }
    const tailorSigned = chain.sign(transaction('tailor'));
    expect((await post(user.token, tailorSigned, 'quote')).record).toMatchObject({
      app: 'quote',
      status: 'rejected',
      reason: WRONG_APP,
    });
    expect(await coins(user.id)).toBe(0);
    // Each still grants in its own app afterwards: the refusals held no transaction.
    expect((await post(user.token, quoteSigned, 'quote')).record).toMatchObject({ app: 'quote', status: 'granted' });
    expect((await post(user.token, tailorSigned)).record).toMatchObject({ app: 'tailor', status: 'granted' });
    expect(await coins(user.id)).toBe(150);
  });

  it('an app without App Store settings keeps its receipts pending', async () => {
    const user = await appUser();
    const answer = await post(user.token, chain.sign(transaction('quote')), 'poster' as AppCode);
    expect(answer.record).toMatchObject({ app: 'poster', status: 'pending' });
    expect(await coins(user.id)).toBe(0);
  });
});

describe('App Store notifications per app', () => {
  it("are verified with the settings of the app whose bundle they name, and act in that app's records only", async () => {
    const user = await appUser();
    const tx = transaction('quote');
    await post(user.token, chain.sign(tx), 'quote');
    expect(await coins(user.id)).toBe(50);
    expect(await notify('REFUND', bundles.quote, { ...tx, revocationDate: Date.now() })).toMatchObject({
      status: 'applied',
    });
    expect(await coins(user.id)).toBe(0);
    // A purchase the notification brings first is kept in quote, waiting for the app's post.
    const early = transaction('quote');
    expect(await notify('ONE_TIME_CHARGE', bundles.quote, early)).toMatchObject({ status: 'applied' });
    const waiting = await db()
      .selectFrom('iap_records')
      .select(['app', 'status'])
      .where('transaction_id', '=', early.transactionId)
      .executeTakeFirstOrThrow();
    expect(waiting).toEqual({ app: 'quote', status: 'pending' });
    expect((await post(user.token, chain.sign(early), 'quote')).record).toMatchObject({ status: 'granted' });
    expect(await coins(user.id)).toBe(50);
  });

  it("naming quote's bundle with a transaction of tailor's, or a bundle no app has, is refused", async () => {
    const user = await appUser();
    const tx = transaction('tailor');
    await post(user.token, chain.sign(tx));
    expect(await coins(user.id)).toBe(100);
    // Verified as quote's: its inner transaction, signed for tailor's bundle, does not verify.
    expect(await notify('REFUND', bundles.quote, { ...tx, revocationDate: Date.now() })).toEqual({
      status: 'rejected',
      reason: `通知中的交易${WRONG_APP}`,
    });
    expect(await notify('REFUND', 'com.nobody.app', { ...tx, bundleId: 'com.nobody.app' })).toEqual({
      status: 'rejected',
      reason: WRONG_APP,
    });
    expect(await coins(user.id)).toBe(100);
  });
});

describe('Google Play purchases per app', () => {
  it("are verified for the app's package as its own service account", async () => {
    const user = await appUser();
    const purchaseToken = `quote-${randomUUID()}`;
    play.quote.products.set(purchaseToken, productPurchase());
    const google = (app: AppCode) =>
      server.call('/api/iaprecord/google', { app, productId: products[app], purchaseToken }, user.token);
    // Posted for tailor: tailor's account asks for tailor's package, and Google knows no such purchase.
    const asTailor = await google('tailor');
    expect(asTailor.body.data).toMatchObject({
      record: { app: 'tailor', status: 'rejected', reason: expect.stringContaining('Google Play 找不到这笔购买') },
    });
    expect(play.tailor.calls.some((c) => c.includes('/applications/com.appdesk.tailor/'))).toBe(true);
    const asQuote = await google('quote');
    expect(asQuote.body.data).toMatchObject({ duplicate: false, record: { app: 'quote', status: 'granted' } });
    expect(play.quote.calls.some((c) => c.includes('/applications/com.appdesk.quote/purchases/products/'))).toBe(true);
    expect((await google('quote')).body.data).toMatchObject({ duplicate: true });
    expect(await coins(user.id)).toBe(50);
  });
});

describe('the console', () => {
  it('asks per app which stores verify, and lists one app by its switcher', async () => {
    const config = async (app?: string) =>
      (await server.call('/api/iaprecord/fetch/config', app ? { app } : {}, admin)).body.data;
    expect(await config()).toEqual({ apple: true, appleEnvironments: ['Sandbox'], google: true });
    expect(await config('quote')).toEqual({ apple: true, appleEnvironments: ['Sandbox'], google: true });
    expect(await config('poster')).toEqual({ apple: false, appleEnvironments: [], google: false });
    const page = await server.call('/api/iaprecord/fetch/page', { app: 'quote', size: 100 }, admin);
    const list = (page.body.data as { list: { app: string }[] }).list;
    expect(list.length).toBeGreaterThan(0);
    expect(new Set(list.map((r) => r.app))).toEqual(new Set(['quote']));
  });
});
