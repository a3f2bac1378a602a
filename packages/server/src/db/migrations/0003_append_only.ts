import { type Kysely, sql } from 'kysely';
import type { Dialect } from './helpers';

/** Tables whose rows are history: written once, never changed or removed. */
const historyTables = ['audit_log', 'coin_records'] as const;

/**
 * The audit log and the coin ledger refuse UPDATE and DELETE in the database itself, so no
 * code path (or a hand-typed query) can rewrite history. Accounts are blocked, never deleted:
 * deleting one that has ledger rows now fails instead of erasing its history by cascade.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    for (const table of historyTables) {
      for (const operation of ['update', 'delete'] as const) {
        await sql
          .raw(
            `create trigger ${table}_no_${operation} before ${operation} on ${table}
             begin select raise(abort, '${table} is append-only'); end`,
          )
          .execute(db);
      }
    }
    return;
  }
  await sql`create or replace function appdesk_append_only() returns trigger language plpgsql as $$
    begin raise exception '% is append-only', tg_table_name; end $$`.execute(db);
  for (const table of historyTables) {
    await sql
      .raw(
        `create trigger ${table}_append_only before update or delete on ${table}
         for each row execute function appdesk_append_only()`,
      )
      .execute(db);
  }
}
