import { type Kysely, sql } from 'kysely';
import { SESSION_CHANGES } from '../../../core/session-cache';
import type { Dialect } from '../../../db/migrations/helpers';

/**
 * PostgreSQL: every change that could make an instance's kept operator session wrong is notified
 * on SESSION_CHANGES once its transaction commits (core/session-cache.ts), whichever
 * instance or tool made it:
 * - a session deleted (signed out, ended by an operator, expired, pruned past ten);
 * - an operator's row updated or deleted (blocked, demoted, password to change, renamed…).
 * A session's own update only extends it (the once-a-minute touch), and app users' rows change
 * with every coin: neither is notified, since a notifying commit takes a database-wide lock.
 * SQLite keeps no sessions in memory.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql
    .raw(
      `create function appdesk_session_changed() returns trigger language plpgsql as $$
       begin
         perform pg_notify('${SESSION_CHANGES}', '');
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger sessions_deleted after delete on sessions
       for each row execute function appdesk_session_changed()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger operators_changed after update or delete on users
       for each row when (old.is_admin = 1) execute function appdesk_session_changed()`,
    )
    .execute(db);
  for (const table of ['sessions', 'users']) {
    await sql
      .raw(
        `create trigger ${table}_truncated after truncate on ${table}
         for each statement execute function appdesk_session_changed()`,
      )
      .execute(db);
  }
}
