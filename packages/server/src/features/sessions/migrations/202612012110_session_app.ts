import { DEFAULT_APP } from '@appdesk/contract/constants';
import type { Kysely } from 'kysely';

/**
 * A session knows its app (issue 29): the app's VIP is what /api/users/fetch/info answers. The
 * sessions of before were all the default app's (the console's too).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('app', 'text', (c) => c.notNull().defaultTo(DEFAULT_APP))
    .execute();
}
