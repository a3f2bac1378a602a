/**
 * Migration 202612012100_vip_per_app (and sessions' 202612012110_session_app) on a database made
 * by the migrations of before: a user's expiry in users.vip_expires_at becomes their VIP in the
 * default app, the old records and sessions are the default app's, and the app's session answers
 * the same VIP as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { digest, nextPhone, openTestDatabase, startServer, type TestDatabase } from '../../../test/harness';
import { newUserRow } from '../../core/new-user';
import { hashToken } from '../../core/sessions';
import { migrateToLatest } from '../../db/index';
import type { Migration } from '../../db/migrations/index';

const FIRST_OF_THIS_CHANGE = '202612012100';
const previousRelease: Migration[] = Object.entries(
  import.meta.glob<Pick<Migration, 'up'>>('../*/migrations/*.ts', { eager: true }),
)
  .map(([file, m]) => ({ name: path.basename(file, '.ts'), up: m.up }))
  .filter((m) => m.name < FIRST_OF_THIS_CHANGE);

const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-vip-migration-'));
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.handle.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('moves an existing expiry, its records and the sessions under the default app', async () => {
  database = await openTestDatabase(dataDir);
  await migrateToLatest(database.handle, previousRelease);
  const { db } = database.handle;
  const now = Date.now();
  const expires = now + 20 * 86_400_000;
  // Written the old way: the expiry a column of the user, a record without app, a session without app.
  const user = await db
    .insertInto('users')
    .values(newUserRow({ phone: nextPhone(), password_hash: await digest('unused') }, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  const lapsed = await db
    .insertInto('users')
    .values(newUserRow({ phone: nextPhone(), password_hash: await digest('unused') }, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`update users set vip_expires_at = ${expires} where id = ${user.id}`.execute(db);
  await sql`update users set vip_expires_at = ${now - 86_400_000} where id = ${lapsed.id}`.execute(db);
  await sql`insert into vip_records (user_id, days, before_expires_at, after_expires_at, reason, created_at)
    values (${user.id}, 20, null, ${expires}, 'admin', ${now})`.execute(db);
  const token = 'a-session-token-of-the-previous-release-000000';
  await sql`insert into sessions (user_id, token_hash, ip, user_agent, created_at, last_used_at, expires_at)
    values (${user.id}, ${hashToken(token)}, null, null, ${now}, ${now}, ${now + 86_400_000})`.execute(db);

  // The new release starts on that database and migrates it.
  const server = await startServer({ dataDir }, database);
  try {
    const migrated = server.app.services.db;
    const entitlements = await migrated
      .selectFrom('vip_entitlements')
      .select(['user_id', 'app', 'expires_at'])
      .where('user_id', 'in', [user.id, lapsed.id])
      .orderBy('user_id')
      .execute();
    expect(entitlements.map((e) => [e.user_id, e.app, Number(e.expires_at)])).toEqual([
      [user.id, 'tailor', expires],
      [lapsed.id, 'tailor', now - 86_400_000],
    ]);
    const records = await migrated.selectFrom('vip_records').select('app').where('user_id', '=', user.id).execute();
    expect(records).toEqual([{ app: 'tailor' }]);
    const sessions = await migrated.selectFrom('sessions').select('app').where('user_id', '=', user.id).execute();
    expect(sessions).toEqual([{ app: 'tailor' }]);
    // The app's session of before answers the VIP it answered before.
    const info = await server.call('/api/users/fetch/info', {}, token);
    expect((info.body.data as { user: { vipExpiresAt: string } }).user.vipExpiresAt).toBe(
      new Date(expires).toISOString(),
    );
  } finally {
    await server.close();
  }
});
