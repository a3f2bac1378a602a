import type { Kysely } from 'kysely';

/**
 * A session used on an admin endpoint is a console session (等保二级, issue 30): unused for the
 * console's idle time (APPDESK_CONSOLE_IDLE_MINUTES) it ends, while the apps' sessions keep their
 * 7-day sliding expiry (core/sessions.ts). Sessions of before start as not (yet) console sessions:
 * an operator's next admin call marks theirs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('console', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
