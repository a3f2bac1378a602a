import { type Kysely, sql } from 'kysely';
import { type Dialect, keepCount, ms, pk } from '../../../db/migrations/helpers';

/** The VIP history: append-only like the coin ledger, one row per change per business record. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('vip_records'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('days', 'integer')
    .addColumn('before_expires_at', ms(dialect))
    .addColumn('after_expires_at', ms(dialect))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ref_type', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('operator_id', 'integer')
    .addColumn('note', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vip_records_user').on('vip_records').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('vip_records_reason').on('vip_records').columns(['reason', 'id']).execute();
  // One change per business event: the same order can never extend VIP twice.
  await db.schema
    .createIndex('vip_records_ref')
    .on('vip_records')
    .columns(['reason', 'ref_type', 'ref_id'])
    .unique()
    .where(sql.ref('ref_id'), 'is not', null)
    .execute();
  if (dialect === 'sqlite') {
    for (const operation of ['update', 'delete'] as const) {
      await sql
        .raw(
          `create trigger vip_records_no_${operation} before ${operation} on vip_records
           begin select raise(abort, 'vip_records is append-only'); end`,
        )
        .execute(db);
    }
  } else {
    await sql
      .raw(
        `create trigger vip_records_append_only before update or delete on vip_records
         for each row execute function appdesk_append_only()`,
      )
      .execute(db);
  }
  await keepCount(db, dialect, { name: 'vip_records', table: 'vip_records' });
}
