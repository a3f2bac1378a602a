import { type Kysely, sql } from 'kysely';

/**
 * The header bell asks on every console page for threads with posts the operators have not read:
 * a partial index holds just those, newest first, however many answered threads pile up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('feedback_threads_unread')
    .on('feedback_threads')
    .column('last_post_at')
    .where(sql.ref('last_user_post_id'), '>', sql.ref('admin_read_post_id'))
    .execute();
}
