import type { Kysely } from 'kysely';
import { type Dialect, ms } from '../../../db/migrations/helpers';
import { createTriggersSql, rollUpSql, runAll } from '../counters';

/**
 * The dashboard's counters (counters.ts): rolled up once from the rows already there, then kept
 * by triggers. And the daily snapshots of state figures that have no history of their own.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('stat_counts')
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('dim', 'text', (c) => c.notNull())
    .addColumn('value', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('stat_counts_pkey', ['metric', 'bucket', 'dim'])
    .execute();
  await db.schema
    .createTable('stat_snapshots')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('value', big, (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .addPrimaryKeyConstraint('stat_snapshots_pkey', ['name', 'day'])
    .execute();
  // As first made: the per-app counters came with apps (202612010120_dashboard_per_app).
  await runAll(db, rollUpSql(dialect, undefined, { perApp: false }));
  await runAll(db, createTriggersSql(dialect, { perApp: false }));
}
