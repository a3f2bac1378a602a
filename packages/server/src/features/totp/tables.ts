import type { Generated } from 'kysely';
import type { FeatureDb } from '../../db/index';

/**
 * totp_factors: an account's authenticator (two-factor sign-in). A row with `enabled_at` null is
 * an enrolment begun but not confirmed with a code yet: it asks nothing at sign-in.
 */
export interface TotpFactorsTable {
  user_id: number;
  /** The base32 secret, sealed under APPDESK_SECRETS_KEY (core/secret-box.ts), bound to the account. */
  sealed_secret: string;
  enabled_at: number | null;
  /** The last 30-second time step a code was accepted for: a code is good once (no replay). */
  last_step: number | null;
  created_at: number;
  updated_at: number;
}

/** totp_recovery_codes: an account's one-time recovery codes, as SHA-256 digests only. */
export interface TotpRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of `<user id>:<code without dashes, lower case>`. */
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** totp_challenges: a sign-in whose password was right, waiting for its second step (short-lived). */
export interface TotpChallengesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the challenge handed to the client; the challenge itself is never stored. */
  token_hash: string;
  user_id: number;
  /** The app the sign-in is for (the session's app once the second step succeeds). */
  app: string;
  expires_at: number;
  created_at: number;
}

/** The totp feature's own tables: its database type (TotpDb) is these and the core ones (db/schema.ts). */
export interface TotpTables {
  totp_factors: TotpFactorsTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
  totp_challenges: TotpChallengesTable;
}

export type TotpDb = FeatureDb<TotpTables>;

declare module '../../db/schema' {
  interface Database extends TotpTables {}
}
