import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, digest, nextPhone, startServer, type TestServer } from '../../../test/harness';
import { enabledSuperAdmins } from '../../core/operators';

/** An operator's own password: it meets the operator rule (10+ characters, 3 classes), sent as typed too. */
const TEAM_PASSWORD = 'Team-12345';

let server: TestServer;
let admin: string;
let adminId: number;
/** Built-in roles' ids by their key (the migration seeds them). */
const roleIds: Record<string, number> = {};

beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  adminId = (await server.app.services.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
  const roles = await server.app.services.db.selectFrom('roles').select(['id', 'builtin']).execute();
  for (const r of roles) if (r.builtin) roleIds[r.builtin] = r.id;
});
afterAll(async () => {
  await server.close();
});

const data = <T>(answer: Answer): T => {
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
const refused = (answer: Answer) => [answer.body.code, answer.body.message];

interface Operator {
  id: number;
  phone: string;
  nickname: string;
  status: string;
  roles: { id: number; name: string; builtin: string | null }[];
  apps: string[] | null;
  superAdmin: boolean;
  mustChangePassword: boolean;
  lastLoginAt: string | null;
}
type Made = { operator: Operator; password: string };

/** A new operator with these roles, signed in with a password of their own. */
async function operatorWith(roles: number[], apps: string[] | null = null, by = admin) {
  const phone = nextPhone();
  const made = data<Made>(
    await server.call('/api/operators/make', { phone, nickname: '操作员', roleIds: roles, apps }, by),
  );
  const first = await server.login(phone, made.password);
  const changed = await server.call(
    '/api/users/update/password',
    { old: await digest(made.password), refresh: await digest(TEAM_PASSWORD), plainPassword: TEAM_PASSWORD },
    first,
  );
  expect(changed.body.code).toBe(200);
  return { id: made.operator.id, phone, token: await server.login(phone, TEAM_PASSWORD) };
}

/** The operation log's newest row, as the page shows it. */
async function lastLogRow() {
  const page = data<{
    list: { action: string; changes: { label: string; before: string | null; after: string | null }[] }[];
  }>(await server.call('/api/audit/fetch/page', { size: 1 }, admin));
  return page.list[0];
}

describe('操作员管理', () => {
  it('creates an operator with a one-time initial password that must be changed first', async () => {
    const phone = nextPhone();
    const made = data<Made>(
      await server.call(
        '/api/operators/make',
        { phone, nickname: '客服小王', roleIds: [roleIds.support], apps: ['tailor'] },
        admin,
      ),
    );
    expect(made.password).toMatch(/^[A-Za-z2-9]{10}$/);
    expect(made.operator).toMatchObject({
      nickname: '客服小王',
      status: 'normal',
      roles: [{ name: '客服', builtin: 'support' }],
      apps: ['tailor'],
      superAdmin: false,
      mustChangePassword: true,
      lastLoginAt: null,
    });
    expect(made.operator.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    // The log names the roles and apps in words, never the password.
    const row = await lastLogRow();
    expect(row.action).toBe('operators.make');
    expect(row.changes).toEqual(
      expect.arrayContaining([
        { field: 'roles', label: '角色', before: null, after: '客服' },
        { field: 'apps', label: '可见应用', before: null, after: '滚动截屏' },
      ]),
    );
    const stored = await server.app.services.db
      .selectFrom('audit_log')
      .select('after')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(stored.after).not.toContain(made.password);
    // Signed in with it, the console answers 428 until the password is changed.
    const first = await server.login(phone, made.password);
    expect((await server.call('/api/operators/fetch/me', {}, first)).body.code).toBe(428);
    await server.call(
      '/api/users/update/password',
      { old: await digest(made.password), refresh: await digest(TEAM_PASSWORD), plainPassword: TEAM_PASSWORD },
      first,
    );
    const token = await server.login(phone, TEAM_PASSWORD);
    const me = data<{ permissions: string[]; apps: string[] | null }>(
      await server.call('/api/operators/fetch/me', {}, token),
    );
    expect(me.permissions).toContain('feedback.reply');
    expect(me.permissions).not.toContain('order.refund');
    expect(me.apps).toEqual(['tailor']);
    // 客服 reads users but not 操作员管理, and the list shows the sign-in.
    expect((await server.call('/api/operators/fetch/page', {}, token)).body.code).toBe(403);
    const listed = data<{ list: Operator[] }>(
      await server.call('/api/operators/fetch/page', { search: '客服小王' }, admin),
    );
    expect(listed.list[0].lastLoginAt).not.toBeNull();
    expect(listed.list[0].mustChangePassword).toBe(false);
  });

  it('refuses a phone that already has an account, and roles or apps that do not exist', async () => {
    const phone = nextPhone();
    await server.addUser({ phone });
    const taken = await server.call('/api/operators/make', { phone, nickname: '重复', roleIds: [] }, admin);
    expect(refused(taken)).toEqual([409, '该手机号已注册：请在「用户管理」中把它设为管理员，再在这里分配角色']);
    const noRole = await server.call(
      '/api/operators/make',
      { phone: nextPhone(), nickname: '无', roleIds: [9999] },
      admin,
    );
    expect(refused(noRole)).toEqual([400, '角色不存在：ID 9999']);
    const noApp = await server.call(
      '/api/operators/make',
      { phone: nextPhone(), nickname: '无', roleIds: [], apps: ['nosuchapp'] },
      admin,
    );
    expect(refused(noApp)).toEqual([400, '未知的应用：nosuchapp']);
  });

  it('an operator hands out only what they hold, and acts only on operators holding no more', async () => {
    const role = data<{ role: { id: number } }>(
      await server.call(
        '/api/roles/make',
        { name: '人事', permissions: ['operators.manage', 'users.message', 'feedback.reply'] },
        admin,
      ),
    ).role;
    const hr = await operatorWith([role.id]);
    const superGrant = await server.call(
      '/api/operators/make',
      { phone: nextPhone(), nickname: '越权', roleIds: [roleIds.super] },
      hr.token,
    );
    expect(refused(superGrant)).toEqual([403, '不能授予「超级管理员」：只有超级管理员可以授予「超级管理员」']);
    const finance = await server.call(
      '/api/operators/make',
      { phone: nextPhone(), nickname: '越权', roleIds: [roleIds.finance] },
      hr.token,
    );
    expect(finance.body.code).toBe(403);
    expect(finance.body.message).toMatch(/^不能授予「财务」：你自己没有其中的「.+」等 \d+ 项权限$/);
    // Nothing was written by the refused calls.
    expect((await server.call('/api/operators/fetch/page', { search: '越权' }, admin)).body.data).toMatchObject({
      total: 0,
    });
    // A role within their own is fine; so is limiting it to an app.
    const peer = await operatorWith([role.id], ['tailor'], hr.token);
    // They cannot touch a 超级管理员: no new password, no block, no disabling, no roles.
    expect(refused(await server.call('/api/operators/reset/password', { id: adminId }, hr.token))[0]).toBe(403);
    expect(refused(await server.call('/api/operators/disable', { id: adminId }, hr.token))[0]).toBe(403);
    expect(refused(await server.call('/api/users/block', { id: adminId, reason: '越权' }, hr.token))[0]).toBe(403);
    // 用户管理's reset of an operator's password needs 操作员管理 too.
    const resetter = data<{ role: { id: number } }>(
      await server.call('/api/roles/make', { name: '重置员', permissions: ['users.resetPassword'] }, admin),
    ).role;
    const support = await operatorWith([resetter.id]);
    const viaUsers = await server.call('/api/users/reset/password', { id: peer.id, reason: '测试' }, support.token);
    expect(viaUsers.body.message).toMatch(/^该账号是操作员/);
    // And they may disable and reset the peer they made.
    expect((await server.call('/api/operators/disable', { id: peer.id, reason: '测试' }, hr.token)).body.code).toBe(
      200,
    );
    expect((await server.call('/api/operators/enable', { id: peer.id, reason: '测试' }, hr.token)).body.code).toBe(200);
  });

  it('disabling ends every session at once; enabling lets them sign in again', async () => {
    const op = await operatorWith([roleIds.auditor]);
    expect((await server.call('/api/users/fetch/page', {}, op.token)).body.code).toBe(200);
    const off = data<{ operator: Operator }>(
      await server.call('/api/operators/disable', { id: op.id, reason: '离职' }, admin),
    );
    expect(off.operator.status).toBe('blocked');
    expect((await server.call('/api/users/fetch/page', {}, op.token)).body.code).toBe(401);
    const login = await server.call('/api/users/login', { phone: op.phone, password: await digest(TEAM_PASSWORD) });
    expect(login.body.code).toBe(403);
    const row = await lastLogRow();
    expect(row.changes).toEqual(
      expect.arrayContaining([{ field: 'status', label: '状态', before: '正常', after: '已停用' }]),
    );
    data(await server.call('/api/operators/enable', { id: op.id, reason: '返聘' }, admin));
    await server.login(op.phone, TEAM_PASSWORD);
  });

  it('a new password is shown once and ends the sessions', async () => {
    const op = await operatorWith([roleIds.auditor]);
    const reset = data<{ phone: string; password: string }>(
      await server.call('/api/operators/reset/password', { id: op.id, reason: '忘记密码' }, admin),
    );
    expect((await server.call('/api/users/fetch/page', {}, op.token)).body.code).toBe(401);
    const token = await server.login(op.phone, reset.password);
    expect((await server.call('/api/users/fetch/page', {}, token)).body.code).toBe(428);
    expect(refused(await server.call('/api/operators/reset/password', { id: adminId }, admin))[0]).toBe(403);
  });

  it('changes roles and apps: the operator acts under them from the next call, and the log says so in words', async () => {
    const op = await operatorWith([roleIds.support]);
    expect((await server.call('/api/order/fetch/page', {}, op.token)).body.code).toBe(200);
    expect((await server.call('/api/version/fetch/page', {}, op.token)).body.code).toBe(403);
    const { operator } = data<{ operator: Operator }>(
      await server.call('/api/operators/update', { id: op.id, roleIds: [roleIds.release], apps: ['tailor'] }, admin),
    );
    expect(operator.roles.map((r) => r.name)).toEqual(['版本发布']);
    expect((await server.call('/api/version/fetch/page', {}, op.token)).body.code).toBe(200);
    expect((await server.call('/api/order/fetch/page', {}, op.token)).body.code).toBe(403);
    const row = await lastLogRow();
    expect(row.changes).toEqual(
      expect.arrayContaining([
        { field: 'roles', label: '角色', before: '客服', after: '版本发布' },
        { field: 'appScope', label: '应用范围', before: '按角色（不另外限定）', after: '指定应用' },
      ]),
    );
    expect(refused(await server.call('/api/operators/update', { id: adminId, nickname: '我' }, admin))).toEqual([
      403,
      '这是你自己的账号：不能修改，请让另一位操作员操作',
    ]);
  });
});

describe('设为管理员 and the last 超级管理员', () => {
  it('设为管理员 makes an operator without roles; 取消 takes the roles and ends the sessions', async () => {
    const user = await server.addUser();
    const made = data<{ user: { isAdmin: boolean } }>(
      await server.call('/api/users/update/admin', { id: user.id, isAdmin: true }, admin),
    );
    expect(made.user.isAdmin).toBe(true);
    const token = await server.login(user.phone, user.password);
    expect(
      data<{ permissions: string[] }>(await server.call('/api/operators/fetch/me', {}, token)).permissions,
    ).toEqual([]);
    expect((await server.call('/api/users/fetch/page', {}, token)).body.code).toBe(403);
    data(await server.call('/api/operators/update', { id: user.id, roleIds: [roleIds.auditor] }, admin));
    expect((await server.call('/api/users/fetch/page', {}, token)).body.code).toBe(200);
    data(await server.call('/api/users/update/admin', { id: user.id, isAdmin: false }, admin));
    expect((await server.call('/api/users/fetch/info', {}, token)).body.code).toBe(401);
    const db = server.app.services.db;
    expect(await db.selectFrom('operator_roles').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await db.selectFrom('operators').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    const row = await lastLogRow();
    expect(row.changes).toEqual(
      expect.arrayContaining([{ field: 'roles', label: '角色', before: '只读审计', after: '无' }]),
    );
  });

  it('two 超级管理员 demoting each other at once: one of them stays, every time', async () => {
    const db = server.app.services.db;
    for (const change of ['roles', 'disable', 'admin', 'roles', 'disable', 'admin'] as const) {
      const second = await operatorWith([roleIds.super]);
      const first = await operatorWith([roleIds.super]);
      // Every other holder steps aside, so these two are the only enabled ones.
      const others = (await enabledSuperAdmins(db)).filter((id) => id !== first.id && id !== second.id);
      await db
        .updateTable('users')
        .set({ status: 'blocked' })
        .where('id', 'in', [0, ...others])
        .execute();
      const demote = (id: number, token: string) =>
        change === 'roles'
          ? server.call('/api/operators/update', { id, roleIds: [roleIds.auditor] }, token)
          : change === 'disable'
            ? server.call('/api/operators/disable', { id, reason: '测试' }, token)
            : server.call('/api/users/update/admin', { id, isAdmin: false }, token);
      const answers = await Promise.all([demote(first.id, second.token), demote(second.id, first.token)]);
      // The second to run is refused: as the last one, or because it lost its own rights first.
      expect([change, answers.filter((a) => a.body.code === 200).length]).toEqual([change, 1]);
      const left = (await enabledSuperAdmins(db)).filter((id) => id === first.id || id === second.id);
      expect([change, left.length]).toEqual([change, 1]);
      for (const a of answers) if (a.body.code === 403) expect(a.body.message).toMatch(/超级管理员|没有「|封禁/);
      await db.updateTable('users').set({ status: 'normal' }).where('id', '=', adminId).execute();
      admin = await server.login('13800000000', 'Admin12345');
    }
  });

  it('the last enabled 超级管理员 cannot be blocked through 用户管理 either', async () => {
    const db = server.app.services.db;
    const supers = await db
      .selectFrom('operator_roles')
      .select('user_id')
      .where('role_id', '=', roleIds.super)
      .where('user_id', '<>', adminId)
      .execute();
    // Everyone else holding it is disabled, straight in the database.
    await db
      .updateTable('users')
      .set({ status: 'blocked' })
      .where('id', 'in', [0, ...supers.map((s) => s.user_id)])
      .execute();
    const op = await operatorWith([roleIds.super]);
    await db.updateTable('users').set({ status: 'blocked' }).where('id', '=', adminId).execute();
    // Now `op` is the last one: nobody can block them, themself included.
    expect(refused(await server.call('/api/users/block', { id: op.id, reason: '测试' }, op.token))[0]).toBe(403);
    expect(refused(await server.call('/api/users/update/admin', { id: op.id, isAdmin: false }, op.token))[0]).toBe(403);
    await db.updateTable('users').set({ status: 'normal' }).where('id', '=', adminId).execute();
    admin = await server.login('13800000000', 'Admin12345');
  });
});
