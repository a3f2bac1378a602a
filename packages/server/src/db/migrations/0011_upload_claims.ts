import type { Kysely } from 'kysely';

/**
 * Who may attach an upload (core/attachments.ts): besides `uploader_id`, an upload made on a
 * public endpoint carries the SHA-256 of a random claim token handed back with it only, so a
 * signed-out app can attach its own upload and nobody else can, whatever the id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('claim_sha256', 'text').execute();
}
