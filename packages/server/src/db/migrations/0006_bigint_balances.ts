import { type Kysely, sql } from 'kysely';
import type { Dialect } from './helpers';

/**
 * Balances and ledger amounts in 64 bits on PostgreSQL, where `integer` overflowed at 2^31 (three
 * grants of 10^9 answered 500). SQLite integers are 64-bit already. The ledger refuses balances
 * above MAX_COINS (contract rules) with a clear message.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter table users alter column coins type bigint`.execute(db);
  await sql`alter table coin_records alter column delta type bigint, alter column balance_after type bigint`.execute(
    db,
  );
}
