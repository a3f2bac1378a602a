import { androidpublisher, auth } from '@googleapis/androidpublisher';
import type { GooglePlayConfig } from '../../payments-config';

/**
 * Google Play purchases, verified with the Android Publisher API (v3) as the app's service account
 * (`GOOGLE_PLAY_SERVICE_ACCOUNT` for the first app, else the one set in 应用管理). One-time products are read from `purchases.products`,
 * subscriptions from `purchases.subscriptionsv2`. A verdict is `final` when asking again cannot
 * change it (an unknown token, a cancelled purchase); otherwise the app may post it again later.
 */
export type PlayVerdict =
  | {
      ok: true;
      /** Google's order id (`GPA.…`); a subscription renewal has a new one (`GPA.….0`, `….1`). */
      orderId: string;
      purchasedAt: number | null;
      expiresAt: number | null;
      environment: 'Production' | 'Test';
      /** The purchase still has to be acknowledged (or consumed) or Google refunds it after 3 days. */
      needsAcknowledgement: boolean;
      payload: Record<string, unknown>;
    }
  | { ok: false; final: boolean; reason: string; payload: Record<string, unknown> | null };

export interface PlayPurchase {
  packageName: string;
  productId: string;
  token: string;
  kind: 'product' | 'subscription';
  consumable: boolean;
}

export interface GooglePlay {
  verify(purchase: PlayPurchase): Promise<PlayVerdict>;
  /** Acknowledges (or, for a consumable, consumes) a granted purchase. */
  acknowledge(purchase: PlayPurchase): Promise<void>;
}

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const millis = (v: string | null | undefined) => (v ? Number(v) || Date.parse(v) || null : null);

/** An HTTP status from a googleapis error, or null when no answer came (network, timeout). */
function statusOf(error: unknown): number | null {
  const e = error as { status?: unknown; response?: { status?: unknown } };
  const status = e?.response?.status ?? e?.status;
  return typeof status === 'number' ? status : null;
}

/** A failed call as a verdict: what Google said in Chinese, and whether asking again may help. */
function failure(error: unknown): PlayVerdict {
  const status = statusOf(error);
  if (status === 404 || status === 410) {
    return {
      ok: false,
      final: true,
      reason: 'Google Play 找不到这笔购买：令牌无效、已过期或不属于该应用',
      payload: null,
    };
  }
  if (status === 400)
    return { ok: false, final: true, reason: 'Google Play 拒绝了查询：购买令牌或商品 ID 无效', payload: null };
  if (status === 401 || status === 403) {
    return {
      ok: false,
      final: false,
      reason: 'Google Play 拒绝了服务账号：请在 Play 管理中心为该服务账号开启“查看财务数据”权限',
      payload: null,
    };
  }
  const why = status === null ? '无法连接 Google Play' : `Google Play 暂时不可用（HTTP ${status}）`;
  return { ok: false, final: false, reason: `${why}，App 稍后重新提交即可`, payload: null };
}

/** The publisher client for a configured service account; token and API hosts may be a gateway. */
export function makeGooglePlay(config: GooglePlayConfig): GooglePlay {
  const jwt = new auth.JWT({
    email: config.clientEmail,
    key: config.privateKey,
    scopes: ['https://www.googleapis.com/auth/androidpublisher'],
  });
  if (config.tokenUrl && config.tokenUrl !== GOOGLE_TOKEN_URL) {
    // The token endpoint is fixed in the library; servers that reach Google through a gateway
    // (as servers in mainland China must) send the token request there instead.
    const tokenUrl = config.tokenUrl;
    jwt.transporter.interceptors.request.add({
      resolved: async (options) => {
        if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(tokenUrl);
        return options;
      },
    });
  }
  const api = androidpublisher({
    version: 'v3',
    auth: jwt,
    ...(config.apiUrl ? { rootUrl: config.apiUrl.replace(/\/?$/, '/') } : {}),
    // The app retries a pending purchase itself; one slow answer must not hold the request.
    retry: false,
    timeout: 10_000,
  });
  const purchases = api.purchases;

  async function verifyProduct(p: PlayPurchase): Promise<PlayVerdict> {
    const { data } = await purchases.products.get({
      packageName: p.packageName,
      productId: p.productId,
      token: p.token,
    });
    const payload = { ...data } as Record<string, unknown>;
    if (data.productId && data.productId !== p.productId) {
      return { ok: false, final: true, reason: `购买的商品（${data.productId}）与提交的商品 ID 不符`, payload };
    }
    if (data.purchaseState === 1) return { ok: false, final: true, reason: '该购买已取消', payload };
    if (data.purchaseState === 2) {
      return { ok: false, final: false, reason: '用户尚未完成付款（待付款），付款后 App 重新提交即可发放', payload };
    }
    if (data.purchaseState !== 0 || !data.orderId) {
      return { ok: false, final: false, reason: 'Google Play 未返回已付款的订单', payload };
    }
    return {
      ok: true,
      orderId: data.orderId,
      purchasedAt: millis(data.purchaseTimeMillis),
      expiresAt: null,
      // purchaseType is present only for test, promo and rewarded purchases; 0 = licence testing.
      environment: data.purchaseType === 0 ? 'Test' : 'Production',
      needsAcknowledgement: data.acknowledgementState !== 1 || (p.consumable && data.consumptionState !== 1),
      payload,
    };
  }

  async function verifySubscription(p: PlayPurchase): Promise<PlayVerdict> {
    const { data } = await purchases.subscriptionsv2.get({ packageName: p.packageName, token: p.token });
    const payload = { ...data } as Record<string, unknown>;
    const item = data.lineItems?.find((line) => line.productId === p.productId);
    if (!item) return { ok: false, final: true, reason: `订阅中没有商品 ${p.productId}`, payload };
    const expiresAt = millis(item.expiryTime);
    const state = data.subscriptionState ?? '';
    // A cancelled subscription stays paid until it expires; a pending or held one is not paid.
    const paid = ['SUBSCRIPTION_STATE_ACTIVE', 'SUBSCRIPTION_STATE_IN_GRACE_PERIOD', 'SUBSCRIPTION_STATE_CANCELED'];
    if (!paid.includes(state) || (expiresAt !== null && expiresAt <= Date.now())) {
      const final = state === 'SUBSCRIPTION_STATE_EXPIRED' || (expiresAt !== null && expiresAt <= Date.now());
      return { ok: false, final, reason: `订阅不在有效期内（${state || '未知状态'}）`, payload };
    }
    if (!item.latestSuccessfulOrderId) return { ok: false, final: false, reason: 'Google Play 未返回订单号', payload };
    return {
      ok: true,
      orderId: item.latestSuccessfulOrderId,
      purchasedAt: millis(data.startTime),
      expiresAt,
      environment: data.testPurchase ? 'Test' : 'Production',
      needsAcknowledgement: data.acknowledgementState !== 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED',
      payload,
    };
  }

  return {
    async verify(p) {
      try {
        return await (p.kind === 'subscription' ? verifySubscription(p) : verifyProduct(p));
      } catch (error) {
        return failure(error);
      }
    },
    async acknowledge(p) {
      const ids = { packageName: p.packageName, token: p.token };
      if (p.kind === 'subscription') {
        await purchases.subscriptions.acknowledge({ ...ids, subscriptionId: p.productId, requestBody: {} });
      } else if (p.consumable) {
        await purchases.products.consume({ ...ids, productId: p.productId });
      } else {
        await purchases.products.acknowledge({ ...ids, productId: p.productId, requestBody: {} });
      }
    },
  };
}

/** Clients kept by their settings' content: an app's settings are rebuilt from the registry on every call. */
const clients = new Map<string, GooglePlay>();
/** A replaced service account leaves its client behind: only the newest few are kept. */
const CLIENTS_KEPT = 32;

/** One client per service account and endpoints (it keeps its access token between requests). */
export function googlePlayFor(config: GooglePlayConfig | null | undefined): GooglePlay | null {
  if (!config) return null;
  const key = JSON.stringify([config.clientEmail, config.privateKey, config.apiUrl ?? null, config.tokenUrl ?? null]);
  let client = clients.get(key);
  if (!client) {
    client = makeGooglePlay(config);
    clients.set(key, client);
    if (clients.size > CLIENTS_KEPT) clients.delete(clients.keys().next().value as string);
  }
  return client;
}
