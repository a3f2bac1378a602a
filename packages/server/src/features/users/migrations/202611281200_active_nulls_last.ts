import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../../db/migrations/helpers';

/**
 * Accounts that never signed in have no last activity (null). Sorted by 最近活跃 they come after
 * every active account newest first, and before them oldest first, on both databases: SQLite
 * orders nulls lowest by itself; PostgreSQL is asked to (`nulls first` ascending, `nulls last`
 * descending, users/list.ts), which the index must match for a page to be read from it in order.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`drop index if exists users_active`.execute(db);
  await sql`create index users_active on users (last_active_at nulls first, id)`.execute(db);
}
