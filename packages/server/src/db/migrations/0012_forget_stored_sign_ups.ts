import { type Kysely, sql } from 'kysely';

/**
 * A replayed sign-up answered the session token its first call had stored in
 * `idempotency_keys.answer`, so live tokens sat in plain text in the table and in every backup,
 * next to a fingerprint hashed (fast) over the password digest. Such answers are now stored as a
 * marker, the fingerprint leaves the password out, and a replay signs in again (http/route.ts
 * `replay`). The sign-ups' rows kept before go: a resend then registers again, which signs the
 * owner of a taken phone in with the right password, so nothing is lost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from idempotency_keys where path = '/api/users/register'`.execute(db);
}
