import type { Kysely } from 'kysely';
import { type Dialect, ms } from '../../../db/migrations/helpers';

/**
 * pending_uploads: a stored object's key is written here (and committed) before the object itself;
 * the upload's transaction deletes it together with inserting the `files` row. So an object with
 * neither a `files` row nor a pending row is certainly an orphan, and a pending row left behind is an
 * upload that never finished (the process died, storage-sweep removes it after a grace period).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('pending_uploads')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('started_at', ms(dialect), (c) => c.notNull())
    .execute();
}
