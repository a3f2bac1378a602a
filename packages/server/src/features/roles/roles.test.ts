import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, digest, nextPhone, snapshotTables, startServer, type TestServer } from '../../../test/harness';

/** An operator's own password: it meets the operator rule (10+ characters, 3 classes), sent as typed too. */
const TEAM_PASSWORD = 'Team-12345';

let server: TestServer;
let admin: string;
const roleIds: Record<string, number> = {};

beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
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

interface Role {
  id: number;
  name: string;
  builtin: string | null;
  permissions: string[];
  apps: string[] | null;
  requireTotp: boolean;
  operators: number;
  editable: boolean;
  removable: boolean;
}

/** An operator holding these roles, signed in with a password of their own. */
async function operatorWith(roles: number[]) {
  const phone = nextPhone();
  const made = data<{ operator: { id: number }; password: string }>(
    await server.call('/api/operators/make', { phone, nickname: '角色测试', roleIds: roles }, admin),
  );
  const first = await server.login(phone, made.password);
  await server.call(
    '/api/users/update/password',
    { old: await digest(made.password), refresh: await digest(TEAM_PASSWORD), plainPassword: TEAM_PASSWORD },
    first,
  );
  return { id: made.operator.id, token: await server.login(phone, TEAM_PASSWORD) };
}

async function lastLogRow() {
  const page = data<{
    list: { action: string; changes: { field: string; before: string | null; after: string | null }[] }[];
  }>(await server.call('/api/audit/fetch/page', { size: 1 }, admin));
  return page.list[0];
}

describe('角色管理', () => {
  it('lists the six built-in roles; 超级管理员 holds every permission and cannot be changed or removed', async () => {
    const { list } = data<{ list: Role[] }>(await server.call('/api/roles/fetch/page', {}, admin));
    expect(list.map((r) => r.name)).toEqual(['超级管理员', '运营', '客服', '财务', '版本发布', '只读审计']);
    const superRole = list[0];
    expect(superRole).toMatchObject({ builtin: 'super', apps: null, editable: false, removable: false, operators: 1 });
    expect(superRole.permissions).toContain('roles.manage');
    const before = await snapshotTables(server, ['sessions']);
    const edit = await server.call('/api/roles/update', { id: superRole.id, description: '改' }, admin);
    expect(refused(edit)).toEqual([403, '「超级管理员」拥有全部权限与应用，不能修改']);
    const remove = await server.call('/api/roles/remove', { id: roleIds.finance }, admin);
    expect(refused(remove)).toEqual([403, '「财务」是内置角色，不能删除']);
    expect(await snapshotTables(server, ['sessions'])).toBe(before);
  });

  it('makes a role: each action brings its page’s 查看, names are unique, apps must exist', async () => {
    const { role } = data<{ role: Role }>(
      await server.call(
        '/api/roles/make',
        { name: '退款专员', description: '只处理退款', permissions: ['order.refund'], apps: ['tailor'] },
        admin,
      ),
    );
    expect(role).toMatchObject({ permissions: ['order.read', 'order.refund'], apps: ['tailor'], removable: true });
    const row = await lastLogRow();
    expect(row.action).toBe('roles.make');
    expect(row.changes).toEqual(
      expect.arrayContaining([
        { field: 'permissions', label: '权限', before: null, after: '订单管理 · 查看、订单管理 · 退款' },
        { field: 'apps', label: '可见应用', before: null, after: '滚动截屏' },
      ]),
    );
    const again = await server.call('/api/roles/make', { name: '退款专员', permissions: [] }, admin);
    expect(refused(again)).toEqual([409, '角色名称「退款专员」已被使用']);
    const noApp = await server.call('/api/roles/make', { name: '无应用', permissions: [], apps: ['nosuchapp'] }, admin);
    expect(refused(noApp)).toEqual([400, '未知的应用：nosuchapp']);
    const unknown = await server.call('/api/roles/make', { name: '乱写', permissions: ['order.steal'] }, admin);
    expect(refused(unknown)[0]).toBe(400);
  });

  it('a change applies to its holders at once and is logged permission by permission', async () => {
    const { role } = data<{ role: Role }>(
      await server.call('/api/roles/make', { name: '对账', permissions: ['coin.read'] }, admin),
    );
    const op = await operatorWith([role.id]);
    expect((await server.call('/api/order/fetch/page', {}, op.token)).body.code).toBe(403);
    data(await server.call('/api/roles/update', { id: role.id, permissions: ['coin.read', 'order.export'] }, admin));
    // The server read the operator's grants again at once (grantsChanged after the commit).
    expect((await server.call('/api/order/fetch/page', {}, op.token)).body.code).toBe(200);
    const row = await lastLogRow();
    expect(row.changes).toEqual(
      expect.arrayContaining([
        { field: 'permissionsAdded', label: '新增的权限', before: null, after: '订单管理 · 查看、订单管理 · 导出' },
      ]),
    );
    // A role someone holds cannot go, and the refusal says how many hold it.
    const held = await server.call('/api/roles/remove', { id: role.id }, admin);
    expect(refused(held)).toEqual([409, '还有 1 位操作员持有「对账」：请先在操作员管理中取消分配，再删除']);
    data(await server.call('/api/operators/update', { id: op.id, roleIds: [] }, admin));
    expect(data<{ id: number }>(await server.call('/api/roles/remove', { id: role.id }, admin)).id).toBe(role.id);
    expect((await lastLogRow()).action).toBe('roles.remove');
    expect((await server.call('/api/roles/fetch/detail', { id: role.id }, admin)).body.code).toBe(404);
  });

  it('a 角色管理 holder who is not 超级管理员 neither widens a role beyond their own nor edits a stronger one', async () => {
    const { role } = data<{ role: Role }>(
      await server.call(
        '/api/roles/make',
        { name: '权限管理员', permissions: ['roles.manage', 'feedback.reply'], apps: ['tailor'] },
        admin,
      ),
    );
    const keeper = await operatorWith([role.id]);
    const wider = await server.call('/api/roles/make', { name: '想退款', permissions: ['order.refund'] }, keeper.token);
    expect(refused(wider)).toEqual([403, '不能把角色设成这样：你自己没有其中的「订单管理 · 查看」等 2 项权限']);
    const allApps = await server.call(
      '/api/roles/make',
      { name: '全部应用', permissions: ['feedback.read'] },
      keeper.token,
    );
    expect(refused(allApps)).toEqual([403, '不能把角色设成这样：它可见全部应用，而你只能看到部分应用']);
    const fine = data<{ role: Role }>(
      await server.call(
        '/api/roles/make',
        { name: '反馈', permissions: ['feedback.reply'], apps: ['tailor'] },
        keeper.token,
      ),
    ).role;
    expect(fine.permissions).toEqual(['feedback.read', 'feedback.reply']);
    const finance = await server.call('/api/roles/update', { id: roleIds.finance, description: '改' }, keeper.token);
    expect(finance.body.code).toBe(403);
    expect(finance.body.message).toMatch(/^不能修改「财务」：你自己没有其中的/);
    // Reading needs roles.read, which roles.manage brings along.
    expect((await server.call('/api/roles/fetch/page', {}, keeper.token)).body.code).toBe(200);
  });
});
