import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, nextPhone, startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: string;
let adminId: number;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  adminId = (
    (await server.call('/api/users/fetch/info', {}, admin)).body.data as {
      user: { id: number };
    }
  ).user.id;
});
afterAll(async () => {
  await server.close();
});

type Data = Record<string, unknown>;
const data = <T = Data>(answer: { body: { data?: unknown } }) => answer.body.data as T;
const db = () => server.app.services.db;
const DAY = 24 * 3600_000;

async function register(channel = 'huawei', app = 'tailor') {
  const phone = nextPhone();
  const password = await digest('App12345');
  const answer = await server.call('/api/users/register', { phone, password, app, channel });
  expect(answer.body.code).toBe(200);
  const { token, user } = data<{ token: string; user: { id: number } }>(answer);
  return { id: user.id, phone, password, token };
}

const signIn = (u: { phone: string; password: string }) =>
  server.call('/api/users/login', { phone: u.phone, password: u.password });

async function auditOf(action: string, targetId?: number) {
  let q = db().selectFrom('audit_log').selectAll().where('action', '=', action);
  if (targetId !== undefined) q = q.where('target_id', '=', String(targetId));
  return q.orderBy('id', 'desc').execute();
}

describe('timed blocks', () => {
  it('refuses the token and sign-in until the block ends, then signs in without anyone acting', async () => {
    const user = await register();
    const until = new Date(Date.now() + DAY).toISOString();
    const blocked = await server.call('/api/users/block', { id: user.id, reason: '刷单', until }, admin);
    expect(blocked.body.code).toBe(200);
    expect(data<{ user: Data }>(blocked).user).toMatchObject({ status: 'blocked', blockedUntil: until });
    expect((await server.call('/api/users/fetch/info', {}, user.token)).body.code).toBe(401);
    const refused = await signIn(user);
    expect(refused.body.code).toBe(403);
    expect(refused.body.message).toMatch(/^账号已被封禁至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}（北京时间），请联系客服$/);
    const [row] = await auditOf('users.block', user.id);
    expect(JSON.parse(row?.after ?? '{}')).toMatchObject({ status: 'blocked', blockedUntil: until, reason: '刷单' });

    // The end passes (the time is moved back in the database rather than waited for).
    await db()
      .updateTable('users')
      .set({ blocked_until: Date.now() - 1 })
      .where('id', '=', user.id)
      .execute();
    const again = await signIn(user);
    expect(again.body.code).toBe(200);
    const token = data<{ token: string }>(again).token;
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(200);
    const detail = data<{ user: Data }>(await server.call('/api/users/fetch/detail', { id: user.id }, admin));
    expect(detail.user).toMatchObject({ status: 'normal', blockedUntil: null });
    const [lifted] = await auditOf('users.unblock', user.id);
    expect(lifted?.actor_id).toBeNull();
    expect(JSON.parse(lifted?.after ?? '{}')).toMatchObject({ reason: '封禁到期，自动解除' });
  });

  it('lifts due blocks where the list reads them, keeping the status counts right', async () => {
    const user = await register();
    const until = new Date(Date.now() + DAY).toISOString();
    await server.call('/api/users/block', { id: user.id, reason: '测试', until }, admin);
    const box = () => server.call('/api/users/fetch/page/box', {}, admin).then((a) => data<{ blocked: number }>(a));
    const blockedBefore = (await box()).blocked;
    await db()
      .updateTable('users')
      .set({ blocked_until: Date.now() - 1 })
      .where('id', '=', user.id)
      .execute();
    // A list call reads the soonest end at most once a second (liftDueBlocks): as for an end set
    // through another instance, the lists see it within that second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await box()).blocked).toBe(blockedBefore - 1);
    const list = data<{ list: { id: number }[] }>(
      await server.call('/api/users/fetch/page', { status: 'blocked', size: 100 }, admin),
    );
    expect(list.list.some((u) => u.id === user.id)).toBe(false);
  });

  it('a block without end stays; an end in the past is refused; the old client may omit the reason', async () => {
    const user = await register();
    const past = new Date(Date.now() - 1000).toISOString();
    const bad = await server.call('/api/users/block', { id: user.id, reason: '测试', until: past }, admin);
    expect(bad.body).toMatchObject({ code: 400, message: '封禁截止时间必须晚于现在' });
    // The old client's calls (spec: `id` only) still work; the console always sends a reason.
    expect((await server.call('/api/users/block', { id: user.id }, admin)).body.code).toBe(200);
    expect((await server.call('/api/users/unblock', { id: user.id }, admin)).body.code).toBe(200);
    const forever = await server.call('/api/users/block', { id: user.id, reason: '永久封禁' }, admin);
    expect(data<{ user: Data }>(forever).user).toMatchObject({ status: 'blocked', blockedUntil: null });
    expect((await signIn(user)).body.message).toBe('账号已被封禁，请联系客服');
    const unblocked = await server.call('/api/users/unblock', { id: user.id, reason: '申诉通过' }, admin);
    expect(unblocked.body.code).toBe(200);
    const [row] = await auditOf('users.unblock', user.id);
    expect(JSON.parse(row?.after ?? '{}')).toMatchObject({ status: 'normal', reason: '申诉通过' });
    expect((await signIn(user)).body.code).toBe(200);
  });

  it('forces a user out with a reason; not oneself', async () => {
    const user = await register();
    const out = await server.call('/api/users/logout/all', { id: user.id, reason: '账号疑似被盗' }, admin);
    expect(data<{ revoked: number }>(out).revoked).toBe(1);
    expect((await server.call('/api/users/fetch/info', {}, user.token)).body.code).toBe(401);
    expect((await signIn(user)).body.code).toBe(200);
    const self = await server.call('/api/users/logout/all', { id: adminId, reason: '测试' }, admin);
    expect(self.body.code).toBe(403);
    const [row] = await auditOf('users.logout.all', user.id);
    expect(JSON.parse(row?.after ?? '{}')).toMatchObject({ revoked: 1, reason: '账号疑似被盗' });
  });
});

describe('batch actions', () => {
  it('blocks, unblocks and messages the selected users; skips oneself; one log row each', async () => {
    const a = await register();
    const b = await register();
    const ids = [a.id, b.id, adminId];
    const until = new Date(Date.now() + 7 * DAY).toISOString();
    const blocked = await server.call('/api/users/block/batch', { ids, reason: '批量注册', until }, admin);
    expect(data<{ count: number }>(blocked).count).toBe(2);
    for (const u of [a, b]) {
      expect((await server.call('/api/users/fetch/info', {}, u.token)).body.code).toBe(401);
      expect((await signIn(u)).body.code).toBe(403);
    }
    expect((await server.call('/api/users/fetch/info', {}, admin)).body.code).toBe(200);
    const [row] = await auditOf('users.block.batch');
    expect(JSON.parse(row?.after ?? '{}')).toMatchObject({ ids: [a.id, b.id], count: 2, reason: '批量注册' });

    const unblocked = await server.call('/api/users/unblock/batch', { ids: [a.id, b.id], reason: '误封' }, admin);
    expect(data<{ count: number }>(unblocked).count).toBe(2);
    const tokens = [];
    for (const u of [a, b]) {
      const login = await signIn(u);
      expect(login.body.code).toBe(200);
      tokens.push(data<{ token: string }>(login).token);
    }

    const title = `活动通知 ${Date.now()}`;
    const sent = await server.call(
      '/api/users/message/batch',
      { ids: [a.id, b.id], title, content: '奖励已到账' },
      admin,
    );
    expect(data<{ count: number }>(sent).count).toBe(2);
    for (const token of tokens) {
      const unread = await server.call('/api/message/fetch/page/unread', { page: 0, size: 50 }, token);
      expect((unread.body.list as { title: string }[]).some((m) => m.title === title)).toBe(true);
    }
    const other = await register();
    const theirs = await server.call('/api/message/fetch/page/unread', { page: 0, size: 50 }, other.token);
    expect((theirs.body.list as { title: string }[]).some((m) => m.title === title)).toBe(false);
  });

  it('refuses an empty or oversized selection', async () => {
    expect((await server.call('/api/users/block/batch', { ids: [], reason: '空' }, admin)).body.code).toBe(400);
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await server.call('/api/users/unblock/batch', { ids: many, reason: '多' }, admin)).body.code).toBe(400);
  });
});

describe('segments', () => {
  it('filters by channel, app, sign-up and last-active ranges and VIP state', async () => {
    const stamp = Date.now();
    const xiaomi = await register('xiaomi', 'tailor');
    const vivo = await register('vivo', 'tailor');
    // Dates set in the database: sign-up 10 days ago for one, active yesterday for the other.
    await db()
      .updateTable('users')
      .set({ created_at: stamp - 10 * DAY, last_active_at: stamp - 10 * DAY })
      .where('id', '=', xiaomi.id)
      .execute();
    await db()
      .updateTable('users')
      .set({ last_active_at: stamp - DAY })
      .where('id', '=', vivo.id)
      .execute();
    await db()
      .insertInto('vip_entitlements')
      .values({ user_id: vivo.id, app: 'tailor', expires_at: stamp + 30 * DAY, updated_at: stamp })
      .execute();
    const ids = async (filter: Data) => {
      const answer = await server.call('/api/users/fetch/page', { size: 100, ...filter }, admin);
      expect(answer.body.code).toBe(200);
      return data<{ list: { id: number }[] }>(answer).list.map((u) => u.id);
    };
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await ids({ channel: 'xiaomi' })).toContain(xiaomi.id);
    expect(await ids({ channel: 'xiaomi' })).not.toContain(vivo.id);
    expect(await ids({ channel: 'vivo', app: 'tailor' })).toContain(vivo.id);
    const old = await ids({ from: iso(stamp - 11 * DAY), to: iso(stamp - 9 * DAY) });
    expect(old).toContain(xiaomi.id);
    expect(old).not.toContain(vivo.id);
    const recent = await ids({ activeFrom: iso(stamp - 2 * DAY), activeTo: iso(stamp - DAY / 2) });
    expect(recent).toContain(vivo.id);
    expect(recent).not.toContain(xiaomi.id);
    expect(await ids({ vip: 'active' })).toContain(vivo.id);
    expect(await ids({ vip: 'active' })).not.toContain(xiaomi.id);
    expect(await ids({ vip: 'never' })).toContain(xiaomi.id);
    expect(await ids({ vip: 'expired' })).not.toContain(vivo.id);
    // With a search too: the segment still applies.
    expect(await ids({ search: xiaomi.phone.slice(-4), channel: 'vivo' })).not.toContain(xiaomi.id);
    expect(await ids({ search: xiaomi.phone.slice(-4), channel: 'xiaomi' })).toContain(xiaomi.id);
    // Digits with segments read the matches first, then test each match's row (list.ts): every
    // segment and the tab still apply, with the total counted on the same terms.
    const digits = vivo.phone.slice(-7);
    const found = async (filter: Data) => {
      const answer = await server.call('/api/users/fetch/page', { size: 100, search: digits, ...filter }, admin);
      const page = data<{ list: { id: number }[]; total: number }>(answer);
      expect(page.total).toBe(page.list.length);
      return page.list.map((u) => u.id);
    };
    expect(await found({ app: 'tailor', channel: 'vivo' })).toEqual([vivo.id]);
    expect(await found({ app: 'tailor', channel: 'xiaomi' })).toEqual([]);
    expect(await found({ activeFrom: iso(stamp - 2 * DAY), status: 'normal' })).toEqual([vivo.id]);
    expect(await found({ activeTo: iso(stamp - 2 * DAY) })).toEqual([]);
    expect(await found({ from: iso(stamp - 11 * DAY), to: iso(stamp - 9 * DAY) })).toEqual([]);
    expect(await found({ app: 'tailor', status: 'blocked' })).toEqual([]);
    // One letter of a nickname with a segment: the short-search index's matches, then each row.
    await server.call('/api/users/update/info', { nickname: '静好' }, vivo.token);
    await server.call('/api/users/update/info', { nickname: '安静' }, xiaomi.token);
    const letter = async (filter: Data) => {
      const answer = await server.call('/api/users/fetch/page', { size: 100, search: '静', ...filter }, admin);
      const page = data<{ list: { id: number }[]; total: number }>(answer);
      expect(page.total).toBe(page.list.length);
      return page.list.map((u) => u.id).sort((a, b) => a - b);
    };
    expect(await letter({ channel: 'vivo' })).toEqual([vivo.id]);
    expect(await letter({ app: 'tailor' })).toEqual([vivo.id, xiaomi.id].sort((a, b) => a - b));
    expect(await letter({ activeFrom: iso(stamp - 2 * DAY) })).toEqual([vivo.id]);
    const bad = await server.call('/api/users/fetch/page', { vip: 'sometimes' }, admin);
    expect(bad.body.code).toBe(400);
  });
});

describe('ledger by phone', () => {
  it('finds a user’s rows by the whole phone and names the user and the operator', async () => {
    const user = await register();
    await server.call('/api/users/update/coins', { id: user.id, delta: 12, reason: '活动' }, admin);
    const page = await server.call('/api/coin/fetch/page', { phone: user.phone }, admin);
    const list = data<{ list: Data[] }>(page).list;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      userId: user.id,
      userPhone: `${user.phone.slice(0, 3)}****${user.phone.slice(7)}`,
      userNickname: '',
      operatorId: adminId,
      delta: 12,
    });
    expect(list[0]?.operatorPhone).toMatch(/^\d{3}\*{4}\d{4}$/);
    const unknown = await server.call('/api/coin/fetch/page', { phone: '13000000009' }, admin);
    expect(data<{ list: Data[]; total: number }>(unknown)).toMatchObject({ list: [], total: 0 });
    const mismatch = await server.call('/api/coin/fetch/page', { phone: user.phone, userId: adminId }, admin);
    expect(data<{ list: Data[] }>(mismatch).list).toEqual([]);
  });
});
