import type { Kysely } from 'kysely';
import { forgetUnusedAccountsSql, runAll } from '../counters';

/** Accounts nobody has used no longer count as active (counters.ts `forgetUnusedAccountsSql`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runAll(db, forgetUnusedAccountsSql());
}
