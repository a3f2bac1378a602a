import { type Kysely, sql } from 'kysely';

/**
 * A replayed sign-up answered the session token its first call had stored in
 * `idempotency_keys.answer`, so live tokens sat in plain text in the table and in every backup.
 * Such answers are now stored as a marker and a replay signs in again (http/route.ts `replay`);
 * the answers stored before are replaced by the same marker.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update idempotency_keys set answer = ${JSON.stringify({ withheld: 'answered again on replay' })}
    where path = '/api/users/register' and answer is not null`.execute(db);
}
