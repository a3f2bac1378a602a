import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/migrations/helpers';
import { createTriggersSql, dropTriggersSql, firstAppCountersSql, runAll } from '../counters';

/**
 * The dashboard per app (issue 29): the counters of app-scoped rows are kept per app too
 * (counters.ts). Every row from before is the first app's, so its counters start as a copy of the
 * all-apps ones; then the triggers are made again to keep both. Runs after exchange_records got
 * its app (202612010110).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await runAll(db, dropTriggersSql(dialect, { perApp: false }));
  await runAll(db, firstAppCountersSql());
  await runAll(db, createTriggersSql(dialect));
}
