import type { Kysely } from 'kysely';
import { type Dialect, keepCount } from './helpers';

/**
 * Totals the lists show without counting: all users and per status, the ledger, the operation
 * log and messages, kept by triggers (migrations/helpers.ts keepCount).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('row_counts')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('n', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
    .execute();
  await keepCount(db, dialect, { name: 'users', table: 'users' });
  await keepCount(db, dialect, {
    name: 'users.blocked',
    table: 'users',
    where: (row) => `${row}.status = 'blocked'`,
    columns: ['status'],
  });
  await keepCount(db, dialect, {
    name: 'users.admin',
    table: 'users',
    where: (row) => `${row}.is_admin = 1`,
    columns: ['is_admin'],
  });
  for (const table of ['coin_records', 'audit_log', 'messages']) await keepCount(db, dialect, { name: table, table });
}
