import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 在线用户 lists live sessions, most recently active first.
  await db.schema.createIndex('sessions_last_used').on('sessions').columns(['last_used_at', 'id']).execute();
}
