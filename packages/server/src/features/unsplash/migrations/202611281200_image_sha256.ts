import { type Kysely, sql } from 'kysely';

/** Each image's SHA-256, so the same bytes uploaded again are recognised instead of stored twice. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('images')
    .addColumn('sha256', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update images set sha256 = (select files.sha256 from files where files.id = images.file_id)`.execute(db);
  await db.schema.createIndex('images_sha256').on('images').column('sha256').execute();
}
