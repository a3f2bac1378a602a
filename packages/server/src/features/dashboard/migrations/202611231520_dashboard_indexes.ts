import type { Kysely } from 'kysely';

/** Range reads of the dashboard: revenue by payment time, VIPs by expiry (the other ranges had indexes already). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('orders_paid').on('orders').columns(['paid_at', 'id']).execute();
  await db.schema.createIndex('users_vip_expires').on('users').columns(['vip_expires_at', 'id']).execute();
}
