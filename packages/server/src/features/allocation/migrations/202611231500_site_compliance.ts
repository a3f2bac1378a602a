import type { Kysely } from 'kysely';

/** What a Chinese site must show (备案号), the legal pages app stores link to, and the apps' download links. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['icp', 'police', 'android_url', 'ios_url', 'agreement', 'privacy']) {
    await db.schema
      .alterTable('allocation')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
}
