import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/migrations/helpers';

/** The operation log filtered by the user a row is about (对象用户手机号), newest first, from an index. */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id', 'id']).execute();
}
