import { type Kysely, sql } from 'kysely';

/**
 * Timed blocks and the users list's segments.
 * - `blocked_until`: a block with an end (epoch ms); null for a block until an operator lifts it.
 *   The partial index holds only timed blocks, so "is any block due?" is one short index probe.
 * - Channel and app segments, newest first: (channel, created_at, id) and (app, created_at, id)
 *   give a page and a capped count from the index alone. Sign-up and last-active ranges and the
 *   VIP segment use the indexes that exist (users_created, users_active, users_vip_expires).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('blocked_until', 'bigint').execute();
  await sql`create index users_blocked_until on users (blocked_until) where blocked_until is not null`.execute(db);
  await db.schema.createIndex('users_channel_created').on('users').columns(['channel', 'created_at', 'id']).execute();
  await db.schema.createIndex('users_app_created').on('users').columns(['app', 'created_at', 'id']).execute();
}
