import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCacheOf } from '../src/core/session-cache';
import { msUntil, SEEN_WITHIN_MS, startServer, type TestServer, testDb, topology } from './harness';

/**
 * PostgreSQL keeps operators' sessions in memory between their calls (core/session-cache.ts). Two
 * instances on one schema: whatever one of them (or anything else) changes, the other must never
 * answer from a stale session.
 */
describe.runIf(testDb === 'postgres' && topology === 'single')('operators’ sessions kept in memory', () => {
  let one: TestServer;
  let other: TestServer;
  let adminToken: string;
  const cacheOf = (server: TestServer) => {
    const cache = sessionCacheOf(server.app.services.db);
    if (!cache) throw new Error('no session cache on PostgreSQL');
    return cache;
  };
  const listPage = (server: TestServer, token: string) =>
    server.call('/api/users/fetch/page', { page: 0, size: 5 }, token).then((answer) => answer.body.code);
  /** Calls until the instance answers from memory (its listener opens on first use). */
  const warm = async (server: TestServer, token: string) => {
    const before = cacheOf(server).served;
    for (let i = 0; i < 100 && cacheOf(server).served === before; i++) {
      expect(await listPage(server, token)).toBe(200);
      if (cacheOf(server).served === before) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(cacheOf(server).served).toBeGreaterThan(before);
  };
  /** Milliseconds until `server` answers `code` (polled every 2 ms); Infinity past SEEN_WITHIN_MS. */
  const timeUntil = (server: TestServer, token: string, code: number) =>
    msUntil(async () => (await listPage(server, token)) === code, 2, SEEN_WITHIN_MS);
  const database = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    // In the servers' schema: the tables' triggers name their tables without one.
    const client = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL,
      options: `-c search_path=${other.schema},public`,
    });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    one = await startServer();
    other = await one.secondInstance();
    adminToken = (await one.initAdmin()).token;
  });
  afterAll(async () => {
    await other.close();
    await one.close();
  });

  it('serves an operator from memory, and a sign-out through the other instance ends it there at once', async () => {
    const admin = await one.addUser({ isAdmin: true });
    const token = await one.login(admin.phone, admin.password);
    await warm(other, token);
    expect((await one.call('/api/users/logout', {}, token)).body.code).toBe(200);
    // The notification travels beside the answer of the sign-out (milliseconds on a quiet machine);
    // unheard, the kept session would be served for up to a minute.
    expect(await timeUntil(other, token, 401)).toBeLessThan(SEEN_WITHIN_MS);
  });

  it('a sign-out through the same instance is final for its very next call', async () => {
    const admin = await one.addUser({ isAdmin: true });
    const token = await other.login(admin.phone, admin.password);
    await warm(other, token);
    expect((await other.call('/api/users/logout', {}, token)).body.code).toBe(200);
    expect(await listPage(other, token)).toBe(401);
  });

  it('an operator demoted through one instance loses access through the other', async () => {
    const demoted = await one.addUser({ isAdmin: true });
    const demotedToken = await one.login(demoted.phone, demoted.password);
    await warm(other, demotedToken);
    const demote = await one.call('/api/users/update/admin', { id: demoted.id, isAdmin: false }, adminToken);
    expect(demote.body.code).toBe(200);
    // Losing the flag ends the operator's sessions (docs/architecture.md#identity).
    expect(await timeUntil(other, demotedToken, 401)).toBeLessThan(SEEN_WITHIN_MS);
  });

  it("an operator's row changed straight in the database (blocked, demoted, by another tool) is heard too", async () => {
    for (const change of [`status = 'blocked'`, 'is_admin = 0']) {
      const admin = await one.addUser({ isAdmin: true });
      const token = await one.login(admin.phone, admin.password);
      await warm(other, token);
      await database((client) => client.query(`update users set ${change} where id = $1`, [admin.id]));
      expect(await timeUntil(other, token, 403)).toBeLessThan(SEEN_WITHIN_MS);
    }
  });

  it('a session deleted straight in the database (another tool) is heard too', async () => {
    const admin = await one.addUser({ isAdmin: true });
    const token = await one.login(admin.phone, admin.password);
    await warm(other, token);
    await database((client) => client.query(`delete from sessions where user_id = $1`, [admin.id]));
    expect(await timeUntil(other, token, 401)).toBeLessThan(SEEN_WITHIN_MS);
  });

  it('while its listening connection is down, an instance serves nothing from memory', async () => {
    const admin = await one.addUser({ isAdmin: true });
    const token = await one.login(admin.phone, admin.password);
    await warm(other, token);
    const cache = cacheOf(other);
    // End the listener of `other`'s schema, as a database restart or a network cut would.
    await database((client) =>
      client.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [
        `appdesk sessions ${other.schema}`,
      ]),
    );
    const lostAt = performance.now();
    while (cache.open && performance.now() - lostAt < 2000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(cache.open).toBe(false);
    const served = cache.served;
    expect(await listPage(other, token)).toBe(200);
    expect(cache.served).toBe(served);
    // It listens again by itself and serves from memory again.
    await warm(other, token);
    expect(cache.open).toBe(true);
  });
});
