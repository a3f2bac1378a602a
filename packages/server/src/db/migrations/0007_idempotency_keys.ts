import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from './helpers';

/**
 * Idempotency keys (http/idempotency.ts): the first answer of a write an app may retry, kept
 * 24 hours under (caller, key). The unique index is what makes two copies sent at once run once.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('idempotency_keys'), dialect)
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('answer', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idempotency_keys_scope_key')
    .on('idempotency_keys')
    .columns(['scope', 'key'])
    .unique()
    .execute();
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
}
