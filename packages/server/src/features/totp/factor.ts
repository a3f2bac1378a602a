import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@appdesk/contract/endpoints/totp';
import { Secret, TOTP } from 'otpauth';
import { openSecret, type SecretKeys, sealSecret } from '../../core/secret-box';
import type { Db } from '../../db/index';
import { fail } from '../../http/errors';

/**
 * The authenticator itself (RFC 6238 through the `otpauth` library): what every authenticator app
 * speaks by default, HMAC-SHA1, 6 digits, a new code every 30 seconds.
 */
const PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Codes of the step before and after the current one are good too: a phone's clock may be off by some seconds. */
const WINDOW = 1;

/** Binds a sealed secret to its account: copied to another account's row, it does not open. */
const sealContext = (userId: number) => `totp:${userId}`;

/** A new random 160-bit secret (RFC 4226's recommended length), base32 as authenticators take it. */
export function newSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// address an authenticator app reads from a QR code. */
export function enrolmentUri(secret: string, issuer: string, label: string): string {
  return new TOTP({ ...PARAMS, issuer, label, secret }).toString();
}

/** The 30-second time step `code` belongs to, or null when it is not the secret's code now (± one step). */
export function stepOf(secret: string, code: string, now = Date.now()): number | null {
  const delta = new TOTP({ ...PARAMS, secret }).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PARAMS.period, timestamp: now }) + delta;
}

export function sealTotpSecret(keys: SecretKeys, userId: number, secret: string): string {
  return sealSecret(keys, secret, sealContext(userId));
}

/** The secret in the clear; throws when no configured key opens it (a key rotation says which). */
export function unsealTotpSecret(keys: SecretKeys, userId: number, sealed: string): string {
  return openSecret(keys, sealed, sealContext(userId));
}

/**
 * The account's secret in the clear, for checking a code. Without the key it was sealed under
 * (APPDESK_SECRETS_KEY removed or replaced without a rotation) no code can be checked: the
 * operator signs in with a recovery code, or an administrator resets the factor from the command line.
 */
export function openTotpSecret(keys: SecretKeys | undefined, userId: number, sealed: string): string {
  try {
    if (!keys) throw new Error('no key');
    return unsealTotpSecret(keys, userId, sealed);
  } catch {
    throw fail.badInput(
      '服务器无法读取验证器密钥（密钥加密的主密钥缺失或已更换）：请使用恢复码，或请管理员在命令行重置两步验证',
    );
  }
}

/** Recovery codes: 12 characters without look-alikes (no 0/o, 1/l/i), about 59 bits each. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((group) => group.join('')).join('-');
}

/** What is stored of a recovery code: a digest bound to its account (as typed: any case, dashes and spaces ignored). */
export function recoveryCodeHash(userId: number, code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`${userId}:${normalized}`).digest('hex');
}

/** Replaces the account's recovery codes with RECOVERY_CODE_COUNT new ones; answers them, the only time they are seen. */
export async function renewRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const now = Date.now();
  await db.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('totp_recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: recoveryCodeHash(userId, code), created_at: now })))
    .execute();
  return codes;
}

/** Recovery codes of the account not used yet. */
export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('totp_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The account's enabled factor (null: none, or an enrolment not confirmed yet). */
export async function enabledFactor(db: Db, userId: number) {
  const row = await db
    .selectFrom('totp_factors')
    .select(['sealed_secret', 'enabled_at', 'last_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.enabled_at != null ? row : null;
}

/** How a code or recovery code was judged: accepted (as which), not the account's, or a code already used. */
export type FactorCheck = 'code' | 'recovery' | 'wrong' | 'reused';

/**
 * Checks a code against the enabled factor and spends it: a code is good once (its time step is
 * kept, and only a later step is accepted after it), a recovery code once. Each spend is one
 * conditional update, so of two requests with the same code at once only one succeeds.
 */
export async function spendFactor(
  db: Db,
  keys: SecretKeys | undefined,
  userId: number,
  given: { code?: string; recoveryCode?: string },
): Promise<FactorCheck> {
  const factor = await enabledFactor(db, userId);
  if (!factor) return 'wrong';
  if (given.code !== undefined) {
    const step = stepOf(openTotpSecret(keys, userId, factor.sealed_secret), given.code);
    if (step === null) return 'wrong';
    const spent = await db
      .updateTable('totp_factors')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(spent.numUpdatedRows) === 1 ? 'code' : 'reused';
  }
  if (given.recoveryCode === undefined) return 'wrong';
  const used = await db
    .updateTable('totp_recovery_codes')
    .set({ used_at: Date.now() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryCodeHash(userId, given.recoveryCode))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? 'recovery' : 'wrong';
}

/** Removes the account's factor and recovery codes (turned off, or reset from the command line); true when it had one on. */
export async function removeFactor(db: Db, userId: number): Promise<boolean> {
  const had = await enabledFactor(db, userId);
  await db.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
  return had !== null;
}
