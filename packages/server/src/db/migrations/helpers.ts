import type { CreateTableBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** Epoch-millisecond columns: 64-bit on PostgreSQL (int4 overflows in 1970 + 24 days). */
export function ms(dialect: Dialect) {
  return dialect === 'postgres' ? ('bigint' as const) : ('integer' as const);
}

/** Adds the auto-increment integer primary key `id`. */
export function pk<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
