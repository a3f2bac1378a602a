import { existsSync, readFileSync } from 'node:fs';

/**
 * The payment platforms' keys and identities (README "Configuration"). A platform whose
 * variables are unset is off: its receipts stay pending, its notifications are refused.
 */
export interface PaymentsConfig {
  /** App Store (StoreKit 2): verified offline against these root certificates. */
  apple: {
    bundleId: string;
    /** Required for Production. */
    appAppleId: number | undefined;
    environments: ('Production' | 'Sandbox')[];
    rootCertificates: Buffer[];
  } | null;
  /** Alipay: RSA2 asynchronous notifications, verified with Alipay's public key. */
  alipay: { appId: string; publicKey: string } | null;
  /** WeChat Pay API v3: signed callbacks, resource decrypted with the APIv3 key. */
  wechat: { mchId: string; apiV3Key: string; platformPublicKey: string; platformSerial: string | undefined } | null;
  /** Google Play: purchases verified through the Android Publisher API as this service account. */
  google?: GooglePlayConfig | null;
}

/**
 * The environment's settings: the first app's platforms (above), and what every app shares: the
 * Apple root certificates purchases chain to, and where Google's API is reached.
 */
export interface EnvironmentPayments extends PaymentsConfig {
  appleRootCertificates?: Buffer[];
  googlePlayApiUrl?: string;
  googlePlayTokenUrl?: string;
}

export interface GooglePlayConfig {
  clientEmail: string;
  privateKey: string;
  /** The Android Publisher API root (default Google's); a gateway where Google is not reachable. */
  apiUrl?: string;
  /** The OAuth token endpoint (default Google's, or the key file's `token_uri`). */
  tokenUrl?: string;
}

/** `GOOGLE_PLAY_SERVICE_ACCOUNT`: the service account's JSON key, as a file path or inline. */
function googlePlayConfig(): GooglePlayConfig | null {
  const value = env('GOOGLE_PLAY_SERVICE_ACCOUNT');
  if (!value) return null;
  let key: { client_email?: unknown; private_key?: unknown; token_uri?: unknown };
  try {
    key = JSON.parse(value.startsWith('{') ? value : readFileSync(value, 'utf8'));
  } catch {
    throw new Error('GOOGLE_PLAY_SERVICE_ACCOUNT must be a service account JSON key (a file path or the JSON itself)');
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw new Error('GOOGLE_PLAY_SERVICE_ACCOUNT: the key has no client_email or private_key');
  }
  return {
    clientEmail: key.client_email,
    privateKey: key.private_key,
    apiUrl: env('GOOGLE_PLAY_API_URL'),
    tokenUrl: env('GOOGLE_PLAY_TOKEN_URL') ?? (typeof key.token_uri === 'string' ? key.token_uri : undefined),
  };
}

const env = (name: string) => process.env[name]?.trim() || undefined;

/** A key or certificate given inline (PEM) or as a file path. */
function pemOrFile(name: string): string | undefined {
  const value = env(name);
  if (!value) return undefined;
  if (value.includes('-----BEGIN') || !existsSync(value)) return value.replace(/\\n/g, '\n');
  return readFileSync(value, 'utf8');
}

/** Base64 without armour (as Alipay's console shows it) becomes a PEM public key. */
export function publicKeyPem(key: string): string {
  if (key.includes('-----BEGIN')) return key;
  const body = key.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`;
}

export function loadPaymentsConfig(): EnvironmentPayments {
  const bundleId = env('APPLE_BUNDLE_ID');
  const roots = env('APPLE_ROOT_CERTIFICATES');
  const environments = (env('APPLE_ENVIRONMENTS') ?? 'Production').split(',').map((e) => e.trim());
  for (const e of environments) {
    if (e !== 'Production' && e !== 'Sandbox') {
      throw new Error(`APPLE_ENVIRONMENTS may list only Production and Sandbox, got "${e}"`);
    }
  }
  const appAppleId = env('APPLE_APP_APPLE_ID') ? Number(env('APPLE_APP_APPLE_ID')) : undefined;
  if (bundleId && environments.includes('Production') && !Number.isSafeInteger(appAppleId)) {
    throw new Error('APPLE_APP_APPLE_ID (the app’s numeric Apple ID) is required to accept Production purchases');
  }
  const alipayId = env('ALIPAY_APP_ID');
  const alipayKey = pemOrFile('ALIPAY_PUBLIC_KEY');
  const mchId = env('WECHATPAY_MCH_ID');
  const apiV3Key = env('WECHATPAY_API_V3_KEY');
  const platformKey = pemOrFile('WECHATPAY_PLATFORM_PUBLIC_KEY');
  if (apiV3Key && Buffer.byteLength(apiV3Key) !== 32) throw new Error('WECHATPAY_API_V3_KEY must be 32 bytes');
  const rootCertificates = roots ? roots.split(',').map((file) => readFileSync(file.trim())) : [];
  return {
    appleRootCertificates: rootCertificates,
    googlePlayApiUrl: env('GOOGLE_PLAY_API_URL'),
    googlePlayTokenUrl: env('GOOGLE_PLAY_TOKEN_URL'),
    apple:
      bundleId && roots
        ? {
            bundleId,
            appAppleId,
            environments: environments as ('Production' | 'Sandbox')[],
            rootCertificates,
          }
        : null,
    alipay: alipayId && alipayKey ? { appId: alipayId, publicKey: publicKeyPem(alipayKey) } : null,
    wechat:
      mchId && apiV3Key && platformKey
        ? {
            mchId,
            apiV3Key,
            platformPublicKey: publicKeyPem(platformKey),
            platformSerial: env('WECHATPAY_PLATFORM_SERIAL'),
          }
        : null,
    google: googlePlayConfig(),
  };
}
