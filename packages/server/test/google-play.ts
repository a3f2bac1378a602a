import { createVerify, generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Google's OAuth token endpoint and the Android Publisher API on loopback, answering with
 * recorded answers (the shapes of Google's documented responses). The service account is the
 * test's own: its key pair is made here, and the token endpoint checks the signed assertion
 * with the public key, as Google does.
 */
export interface PlayFake {
  /** `GOOGLE_PLAY_SERVICE_ACCOUNT`-style config pointing at this server. */
  config: { clientEmail: string; privateKey: string; apiUrl: string; tokenUrl: string };
  /** Recorded answers by purchase token: a one-time product's or a subscription's. */
  products: Map<string, object>;
  subscriptions: Map<string, object>;
  /** Tokens answered with this HTTP status instead (404 unknown, 503 outage). */
  failures: Map<string, number>;
  /** Every request after the token exchange, as "METHOD path". */
  calls: string[];
  tokenRequests: number;
  close(): Promise<void>;
}

const accessToken = 'ya29.test-access-token';
const base64url = (text: string) => Buffer.from(text, 'base64url').toString('utf8');

/** A one-time product purchase as `purchases.products.get` answers it. */
export function productPurchase(fields: Record<string, unknown> = {}) {
  return {
    kind: 'androidpublisher#productPurchase',
    purchaseTimeMillis: String(Date.now() - 60_000),
    purchaseState: 0,
    consumptionState: 0,
    developerPayload: '',
    orderId: `GPA.3345-${Math.floor(Math.random() * 1e4)}-${Math.floor(Math.random() * 1e4)}-${Math.floor(Math.random() * 1e5)}`,
    acknowledgementState: 0,
    regionCode: 'US',
    ...fields,
  };
}

/** A subscription as `purchases.subscriptionsv2.get` answers it. */
export function subscriptionPurchase(productId: string, orderId: string, expiresAt: number, fields: object = {}) {
  return {
    kind: 'androidpublisher#subscriptionPurchaseV2',
    regionCode: 'US',
    startTime: new Date(Date.now() - 60_000).toISOString(),
    subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
    acknowledgementState: 'ACKNOWLEDGEMENT_STATE_PENDING',
    lineItems: [
      {
        productId,
        expiryTime: new Date(expiresAt).toISOString(),
        autoRenewingPlan: { autoRenewEnabled: true },
        latestSuccessfulOrderId: orderId,
      },
    ],
    ...fields,
  };
}

function send(res: ServerResponse, status: number, body?: object) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(body ? JSON.stringify(body) : '');
}

const googleError = (code: number, message: string) => ({ error: { code, message, errors: [{ message }] } });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startPlayFake(): Promise<PlayFake> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = 'appdesk-test@appdesk-test.iam.gserviceaccount.com';
  const products = new Map<string, object>();
  const subscriptions = new Map<string, object>();
  const failures = new Map<string, number>();
  const calls: string[] = [];
  let tokenRequests = 0;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    if (url.pathname === '/token') {
      tokenRequests += 1;
      const assertion = new URLSearchParams(body).get('assertion') ?? '';
      const [header, payload, signature] = assertion.split('.');
      const verifier = createVerify('RSA-SHA256').update(`${header}.${payload}`);
      const claims = JSON.parse(base64url(payload ?? '') || '{}');
      if (!signature || !verifier.verify(publicKey, signature, 'base64url') || claims.iss !== clientEmail) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      if (!String(claims.scope).includes('androidpublisher')) return send(res, 400, { error: 'invalid_scope' });
      return send(res, 200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
    }
    if (req.headers.authorization !== `Bearer ${accessToken}`) {
      return send(res, 401, googleError(401, 'Request had invalid authentication credentials.'));
    }
    calls.push(`${req.method} ${decodeURIComponent(url.pathname)}`);
    const match = /^\/androidpublisher\/v3\/applications\/([^/]+)\/purchases\/(.+)$/.exec(url.pathname);
    if (!match) return send(res, 404, googleError(404, 'Not found'));
    const rest = decodeURIComponent(match[2] ?? '');
    const token = /tokens\/([^/:]+)/.exec(rest)?.[1] ?? '';
    const failure = failures.get(token);
    if (failure) return send(res, failure, googleError(failure, 'recorded failure'));
    if (req.method === 'POST') return send(res, 204);
    const answer = rest.startsWith('subscriptionsv2/') ? subscriptions.get(token) : products.get(token);
    if (!answer) return send(res, 404, googleError(404, 'The purchase token was not found.'));
    return send(res, 200, answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    config: {
      clientEmail,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      apiUrl: `${origin}/`,
      tokenUrl: `${origin}/token`,
    },
    products,
    subscriptions,
    failures,
    calls,
    get tokenRequests() {
      return tokenRequests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
