/**
 * A PostgreSQL deadlock that still happens (issue 26): the call's transaction is run again whole,
 * its Idempotency-Key reserved again, and it answers 200 (or 503 to resend), never HTTP 500.
 * The deadlock is made for real: another connection holds the user's row while the call, having
 * reserved its key, waits for it; that connection then inserts the same key and waits for the call.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, testDb } from './harness';

describe.skipIf(testDb !== 'postgres')('lock conflicts on PostgreSQL', () => {
  let server: TestServer;
  let admin: string;
  let adminId: number;
  beforeAll(async () => {
    server = await startServer();
    admin = (await server.initAdmin()).token;
    const me = await server.call('/api/users/fetch/info', {}, admin);
    adminId = (me.body.data as { user: { id: number } }).user.id;
  });
  afterAll(() => server?.close());

  it('a deadlocked coin adjustment is retried and applied once, with its key reserved again', async () => {
    const user = await server.addUser();
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    try {
      await other.query(`set search_path to ${server.schema}`);
      await other.query('begin');
      await other.query('select id from users where id = $1 for update', [user.id]);
      const key = `deadlock-${Date.now()}`;
      const answer = server.raw('/api/users/update/coins', {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: admin, 'Idempotency-Key': key },
        body: JSON.stringify({ id: user.id, delta: 5, reason: '死锁测试' }),
      });
      // The call has reserved its key and waits for the user's row.
      await waitForLockWait(other);
      // Waiting for the call's key while holding the row it waits for: PostgreSQL fails the call's
      // transaction (it waited first, so its deadlock check runs first), and this insert goes through.
      await other.query(
        `insert into idempotency_keys (scope, key, path, fingerprint, answer, created_at) values ($1, $2, 'x', 'x', null, 0)`,
        [`user:${adminId}`, key],
      );
      await other.query('rollback');
      const done = await answer;
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ code: 200, data: { coins: 5 } });
      const db = server.app.services.db;
      const ledger = await db.selectFrom('coin_records').select('delta').where('user_id', '=', user.id).execute();
      expect(ledger.map((r) => Number(r.delta))).toEqual([5]);
      const keys = await db.selectFrom('idempotency_keys').select('answer').where('key', '=', key).execute();
      expect(keys).toHaveLength(1);
      expect(JSON.parse(keys[0]?.answer ?? 'null')).toMatchObject({ coins: 5 });
      expect(server.logs.join('').includes('deadlock detected')).toBe(false);
    } finally {
      await other.end();
    }
  });
});

/** Until another backend (the server's) waits for a lock this connection holds. */
async function waitForLockWait(client: pg.Client) {
  for (let i = 0; i < 200; i += 1) {
    const { rows } = await client.query(
      'select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no call waited for the user's row");
}
