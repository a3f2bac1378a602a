import { randomBytes } from 'node:crypto';
import { type SecondFactorChallenge, TOTP_CHALLENGE_MS } from '@appdesk/contract/endpoints/totp';
import type { SecretKeys } from '../../core/secret-box';
import { hashToken } from '../../core/sessions';
import type { Db } from '../../db/index';
import { iso } from '../../db/paging';
import { enabledFactor, type FactorCheck, removeFactor, sealTotpSecret, spendFactor, unsealTotpSecret } from './factor';

/**
 * What the rest of the server asks of two-factor sign-in: sign-in (features/users) whether an
 * account has it and to hold a sign-in for its second step; the command line to reset it and to
 * seal its secrets again under a new key.
 */

export type { FactorCheck };

/** Whether the account signs in with a second factor (an enrolment confirmed with a code). */
export async function hasSecondFactor(db: Db, userId: number): Promise<boolean> {
  return (await enabledFactor(db, userId)) !== null;
}

/** Checks and spends a code or recovery code of the account (a code is good once, a recovery code once). */
export function checkSecondFactor(
  db: Db,
  keys: SecretKeys | undefined,
  userId: number,
  given: { code?: string; recoveryCode?: string },
): Promise<FactorCheck> {
  return spendFactor(db, keys, userId, given);
}

/** A sign-in whose password was right, held until its second step; `challenge` is what the client gets. */
export interface HeldSignIn {
  challenge: string;
  userId: number;
  app: string;
  expiresAt: number;
}

/** A new hold for the account's sign-in to `app` (kept by openChallenge). */
export function newChallenge(userId: number, app: string): HeldSignIn {
  return { challenge: randomBytes(32).toString('base64url'), userId, app, expiresAt: Date.now() + TOTP_CHALLENGE_MS };
}

/**
 * Keeps the hold (only the challenge's digest is stored) and answers what the client sends back
 * with the code. Expired holds are dropped here. Written again as is if the call's transaction
 * rolls back (ctx.survivesFailure), so the same challenge stays good.
 */
export async function openChallenge(db: Db, held: HeldSignIn): Promise<SecondFactorChallenge> {
  const now = Date.now();
  await db.deleteFrom('totp_challenges').where('expires_at', '<=', now).execute();
  await db
    .insertInto('totp_challenges')
    .values({
      token_hash: hashToken(held.challenge),
      user_id: held.userId,
      app: held.app,
      expires_at: held.expiresAt,
      created_at: now,
    })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
  return { challenge: held.challenge, expiresAt: iso(held.expiresAt) };
}

/** The sign-in a live challenge holds, or null (unknown, expired or already used). */
export async function findChallenge(
  db: Db,
  challenge: string,
): Promise<{ id: number; userId: number; app: string } | null> {
  const row = await db
    .selectFrom('totp_challenges')
    .select(['id', 'user_id', 'app'])
    .where('token_hash', '=', hashToken(challenge))
    .where('expires_at', '>', Date.now())
    .executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id, app: row.app } : null;
}

/** The second step succeeded: the challenge is spent. */
export async function closeChallenge(db: Db, id: number): Promise<void> {
  await db.deleteFrom('totp_challenges').where('id', '=', id).execute();
}

/** The command line's reset: the account signs in with its password alone again (true when it had a factor on). */
export async function resetSecondFactor(db: Db, userId: number): Promise<boolean> {
  const had = await removeFactor(db, userId);
  await db.deleteFrom('totp_challenges').where('user_id', '=', userId).execute();
  return had;
}

/**
 * A key rotation (`npm run rotate-secrets`, inside its transaction): seals every authenticator
 * secret again under the current key. Answers how many there are and how many it sealed again.
 */
export async function resealTotpSecrets(
  db: Db,
  keys: SecretKeys,
  isCurrent: (sealed: string) => boolean,
): Promise<{ total: number; resealed: number }> {
  const rows = await db.selectFrom('totp_factors').select(['user_id', 'sealed_secret']).execute();
  let resealed = 0;
  for (const row of rows) {
    if (isCurrent(row.sealed_secret)) continue;
    const sealed = sealTotpSecret(keys, row.user_id, unsealTotpSecret(keys, row.user_id, row.sealed_secret));
    await db.updateTable('totp_factors').set({ sealed_secret: sealed }).where('user_id', '=', row.user_id).execute();
    resealed += 1;
  }
  return { total: rows.length, resealed };
}
