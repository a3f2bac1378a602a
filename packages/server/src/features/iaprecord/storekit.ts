import type {
  JWSTransactionDecodedPayload,
  ResponseBodyV2DecodedPayload,
  SignedDataVerifier,
} from '@apple/app-store-server-library';
import type { PaymentsConfig } from '../../payments-config';

type Apple = NonNullable<PaymentsConfig['apple']>;

/**
 * Apple's library (with jsrsasign, about 25 MB of a process's memory), loaded by the first
 * verification: a server whose apps never send a receipt never holds it.
 */
const appleLibrary = () => import('@apple/app-store-server-library');

/** What a refusal means, for the operator reading the record. */
async function refusalReason(status: number): Promise<string> {
  const { VerificationStatus } = await appleLibrary();
  const reasons: Record<number, string> = {
    [VerificationStatus.VERIFICATION_FAILURE]: '签名无效或证书链不受信任',
    [VerificationStatus.RETRYABLE_VERIFICATION_FAILURE]: '证书状态暂时无法确认',
    [VerificationStatus.INVALID_APP_IDENTIFIER]: 'Bundle ID 或 App Apple ID 与配置不符',
    [VerificationStatus.INVALID_ENVIRONMENT]: '交易环境与配置不符',
    [VerificationStatus.INVALID_CHAIN_LENGTH]: '证书链长度不正确',
    [VerificationStatus.INVALID_CERTIFICATE]: '证书无效或在签名时已过期',
    [VerificationStatus.FAILURE]: '签名数据格式不正确',
  };
  return reasons[status] ?? '验证失败';
}

export type Verified<T> =
  | { ok: true; decoded: T }
  | { ok: false; reason: string; claimed: Record<string, unknown> | null };

/**
 * Verifiers kept per trusted roots, app identity and environment (each caches verified certificate
 * chains). Keyed by content, not by the settings object: an app's settings are rebuilt from the
 * registry on every call, and the roots are the environment's one list.
 */
const verifiers = new WeakMap<Buffer[], Map<string, SignedDataVerifier>>();

/** The app's verifier for an environment it accepts, or null for one it does not. */
async function verifierFor(apple: Apple, environment: string): Promise<SignedDataVerifier | null> {
  if (!apple.environments.includes(environment as 'Production')) return null;
  const { Environment, SignedDataVerifier } = await appleLibrary();
  const kept = verifiers.get(apple.rootCertificates) ?? new Map<string, SignedDataVerifier>();
  verifiers.set(apple.rootCertificates, kept);
  const key = JSON.stringify([apple.bundleId, apple.appAppleId ?? null, environment]);
  let verifier = kept.get(key);
  if (!verifier) {
    const env = environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX;
    // Online (OCSP) checks off: verification needs no network; dates are checked at the signed date.
    verifier = new SignedDataVerifier(apple.rootCertificates, false, env, apple.bundleId, apple.appAppleId);
    kept.set(key, verifier);
  }
  return verifier;
}

/** The payload as it claims to be, unverified: only to pick the verifier and to show what was refused. */
export function claimedPayload(jws: string): Record<string, unknown> | null {
  try {
    const payload = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? payload : null;
  } catch {
    return null;
  }
}

async function verify<T>(
  apple: Apple,
  jws: string,
  environmentOf: (claimed: Record<string, unknown>) => unknown,
  run: (verifier: SignedDataVerifier) => Promise<T>,
): Promise<Verified<T>> {
  const claimed = claimedPayload(jws);
  if (!claimed) return { ok: false, reason: '签名数据格式不正确', claimed: null };
  const environment = String(environmentOf(claimed) ?? '');
  const verifier = await verifierFor(apple, environment);
  if (!verifier) {
    return {
      ok: false,
      reason: `不接受的交易环境：${environment || '未知'}（已配置 ${apple.environments.join('、')}）`,
      claimed,
    };
  }
  try {
    return { ok: true, decoded: await run(verifier) };
  } catch (error) {
    if (error instanceof (await appleLibrary()).VerificationException) {
      return { ok: false, reason: await refusalReason(error.status), claimed };
    }
    throw error;
  }
}

export const verifyTransaction = (apple: Apple, jws: string) =>
  verify<JWSTransactionDecodedPayload>(
    apple,
    jws,
    (c) => c.environment,
    (v) => v.verifyAndDecodeTransaction(jws),
  );

export const verifyNotification = (apple: Apple, jws: string) =>
  verify<ResponseBodyV2DecodedPayload>(
    apple,
    jws,
    (c) => (c.data as { environment?: string } | undefined)?.environment,
    (v) => v.verifyAndDecodeNotification(jws),
  );
