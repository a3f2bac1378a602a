import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startServer();
  adminToken = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Own = { id: number; current: boolean; ip: string | null; lastUsedAt: string };
type Live = { id: number; userId: number; phone: string; name: string; isAdmin: boolean };

const data = async <T>(path: string, body: unknown, token: string) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};

describe('sessions', () => {
  it('an account lists its own sessions, the current one marked, and signs another one out', async () => {
    const user = await server.addUser();
    const phoneToken = await server.login(user.phone, user.password);
    const laptopToken = await server.login(user.phone, user.password);
    const { list } = await data<{ list: Own[] }>('/api/sessions/fetch/mine', {}, laptopToken);
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const other = list.find((s) => !s.current) as Own;

    // The current session is ended with 退出登录, not here.
    const self = await server.call('/api/sessions/revoke/mine', { id: list.find((s) => s.current)?.id }, laptopToken);
    expect(self.body.code).toBe(400);

    await data('/api/sessions/revoke/mine', { id: other.id }, laptopToken);
    expect((await server.call('/api/users/fetch/info', {}, phoneToken)).body.code).toBe(401);
    expect((await server.call('/api/users/fetch/info', {}, laptopToken)).body.code).toBe(200);
  });

  it("no account can end another account's session, which answers like a missing one", async () => {
    const victim = await server.addUser();
    const victimToken = await server.login(victim.phone, victim.password);
    const attacker = await server.addUser();
    const attackerToken = await server.login(attacker.phone, attacker.password);
    const [victimSession] = (await data<{ list: Own[] }>('/api/sessions/fetch/mine', {}, victimToken)).list;
    const answer = await server.call('/api/sessions/revoke/mine', { id: victimSession?.id }, attackerToken);
    const missing = await server.call('/api/sessions/revoke/mine', { id: 999_999 }, attackerToken);
    expect([answer.body.code, answer.body.message]).toEqual([missing.body.code, missing.body.message]);
    expect((await server.call('/api/users/fetch/info', {}, victimToken)).body.code).toBe(200);
    // Operators' list is for operators only.
    expect((await server.call('/api/sessions/fetch/page', { page: 0, size: 20 }, attackerToken)).body.code).toBe(403);
  });

  it('operators see every live session with the phone masked, and 强制下线 ends one at once, logged', async () => {
    const user = await server.addUser();
    const userToken = await server.login(user.phone, user.password);
    const page = await data<{ list: Live[]; total: number }>(
      '/api/sessions/fetch/page',
      { phone: user.phone, page: 0, size: 20 },
      adminToken,
    );
    expect(page.total).toBe(1);
    const [live] = page.list as [Live];
    expect(live.phone).toBe(`${user.phone.slice(0, 3)}****${user.phone.slice(7)}`);
    expect(live.isAdmin).toBe(false);

    await data('/api/sessions/revoke', { id: live.id }, adminToken);
    expect((await server.call('/api/users/fetch/info', {}, userToken)).body.code).toBe(401);
    const again = await server.call('/api/sessions/revoke', { id: live.id }, adminToken);
    expect(again.body.code).toBe(404);

    const log = await data<{ list: { action: string; targetId: string; before: { phone: string } }[] }>(
      '/api/audit/fetch/page',
      { action: 'sessions', page: 0, size: 5 },
      adminToken,
    );
    expect(log.list[0]).toMatchObject({ action: 'sessions.revoke', targetId: String(live.id) });
    expect(log.list[0]?.before.phone).not.toContain(user.phone.slice(3, 7));

    // An operator's own current session is not theirs to force off here.
    const mine = (await data<{ list: Own[] }>('/api/sessions/fetch/mine', {}, adminToken)).list.find((s) => s.current);
    expect((await server.call('/api/sessions/revoke', { id: mine?.id }, adminToken)).body.code).toBe(400);
  });
});
