import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, startServer, type TestServer } from '../../../test/harness';
import { codesWithoutWords, diffChanges } from './presenter';

let server: TestServer;
let admin: { token: string; phone: string };
beforeAll(async () => {
  server = await startServer();
  admin = await server.initAdmin();
}, 60_000);
afterAll(async () => {
  await server.close();
});

type Change = { field: string; label: string; before: string | null; after: string | null };
type Entry = {
  id: number;
  actorId: number | null;
  actorName: string | null;
  actorPhone: string | null;
  action: string;
  actionLabel: string;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
  targetLink: { page: string; query: string | null } | null;
  changes: Change[];
};
const page = async (filter: object) => {
  const answer = await server.call('/api/audit/fetch/page', { page: 0, size: 50, ...filter }, admin.token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as { list: Entry[]; total: number };
};
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;

describe('操作日志 in words', () => {
  it('shows a change field by field with Chinese names and value labels, naming the operator and the user', async () => {
    const user = await server.addUser();
    expect((await server.call('/api/users/block', { id: user.id, reason: '测试' }, admin.token)).body.code).toBe(200);
    const [row] = (await page({ action: 'users.block' })).list;
    expect(row).toMatchObject({
      actionLabel: '封禁用户',
      targetType: 'user',
      targetId: String(user.id),
      targetName: masked(user.phone),
      actorPhone: masked(admin.phone),
      // The user target's declared page opens the account itself.
      targetLink: { page: 'users', query: `search=${user.id}&detail=${user.id}` },
    });
    expect(row.changes).toContainEqual({ field: 'status', label: '状态', before: '正常', after: '已封禁' });
    // Nothing shows a whole phone.
    expect(JSON.stringify(row)).not.toContain(user.phone);
  });

  it('names a target user only for a whole user id: "12abc", " 12" or another kind of target name nobody', async () => {
    const user = await server.addUser();
    const db = server.app.services.db;
    await db.updateTable('users').set({ nickname: '目标用户' }).where('id', '=', user.id).execute();
    const at = Date.now();
    const rows = [
      { target_type: 'user', target_id: String(user.id) },
      { target_type: 'user', target_id: `${user.id}abc` },
      { target_type: 'user', target_id: ` ${user.id}` },
      { target_type: 'version', target_id: String(user.id) },
    ];
    await db
      .insertInto('audit_log')
      .values(
        rows.map((r) => ({
          ...r,
          actor_id: null,
          action: 'test.target',
          before: null,
          after: null,
          ip: null,
          created_at: at,
        })),
      )
      .execute();
    const list = (await page({ action: 'test.target' })).list;
    const named = Object.fromEntries(list.map((e) => [`${e.targetType}:${e.targetId}`, e.targetName]));
    expect(named).toEqual({
      [`user:${user.id}`]: `目标用户 · ${masked(user.phone)}`,
      [`user:${user.id}abc`]: null,
      [`user: ${user.id}`]: null,
      [`version:${user.id}`]: null,
    });
  });

  it('filters by the operator phone and by the phone of the user a row is about', async () => {
    const user = await server.addUser();
    const other = await server.addUser();
    const second = await server.addUser({ isAdmin: true });
    const secondToken = await server.login(second.phone, second.password);
    await server.call('/api/users/update/coins', { id: user.id, delta: 5, reason: '补偿' }, admin.token);
    await server.call('/api/users/update/coins', { id: other.id, delta: 7, reason: '补偿' }, secondToken);

    const aboutUser = await page({ userPhone: user.phone });
    expect(aboutUser.list.map((e) => e.targetId)).toEqual([String(user.id)]);
    expect(aboutUser.list[0].changes).toContainEqual({ field: 'coins', label: '金币余额', before: '0', after: '5' });
    expect(aboutUser.list[0].changes).toContainEqual({ field: 'delta', label: '金币变动', before: null, after: '5' });

    const bySecond = await page({ actorPhone: second.phone });
    expect(bySecond.list.map((e) => e.action)).toEqual(['users.update.coins', 'users.login']);
    expect(bySecond.list.every((e) => e.actorId === second.id)).toBe(true);
    expect((await page({ actorPhone: second.phone, userPhone: user.phone })).total).toBe(0);
    // A phone nobody has matches nothing (not everything).
    expect((await page({ userPhone: '13900000000' })).total).toBe(0);
    expect((await page({ actorPhone: '13900000000' })).total).toBe(0);
  });

  it('records an operator signing in (not an app user) and every export, with the file and filter', async () => {
    const appUser = await server.addUser();
    await server.login(appUser.phone, appUser.password);
    expect((await page({ actorPhone: appUser.phone })).total).toBe(0);
    // A failed operator sign-in is only in the 登录日志.
    const before = (await page({ action: 'users.login' })).total;
    await server.call('/api/users/login', { phone: admin.phone, password: await digest('Wrong1234') });
    expect((await page({ action: 'users.login' })).total).toBe(before);

    const signIns = await page({ action: 'users.login', actorPhone: admin.phone });
    expect(signIns.list[0]).toMatchObject({ actionLabel: '登录后台', targetType: 'user' });
    expect(signIns.list[0].changes.map((c) => c.label)).toEqual(['IP', '设备']);

    const answer = await fetch(`${server.url}/api/coin/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin.token },
      body: '{}',
    });
    expect(answer.headers.get('content-type')).toContain('spreadsheetml');
    await answer.arrayBuffer();
    const [exported] = (await page({ action: 'coin.export' })).list;
    expect(exported).toMatchObject({
      actionLabel: '导出金币流水',
      targetType: 'export',
      actorId: expect.any(Number),
      targetLink: null,
    });
    expect(exported.changes[0]).toMatchObject({ label: '文件', after: '金币流水.xlsx' });
    // The actions list names exports and sign-ins as well as every declared write.
    const actions = (await server.call('/api/audit/fetch/actions', {}, admin.token)).body.data as {
      list: { action: string; label: string }[];
    };
    expect(actions.list).toContainEqual(expect.objectContaining({ action: 'users.login', label: '登录后台' }));
    expect(actions.list).toContainEqual(expect.objectContaining({ action: 'loginlog.export', label: '导出登录日志' }));
    expect(actions.list).toContainEqual(expect.objectContaining({ action: 'users.export', label: '导出用户' }));
  });

  it('exports the changes in words', async () => {
    const user = await server.addUser();
    await server.call('/api/users/block', { id: user.id, reason: '测试' }, admin.token);
    const answer = await fetch(`${server.url}/api/audit/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin.token },
      body: JSON.stringify({ userPhone: user.phone }),
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await answer.arrayBuffer());
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual(['ID', '时间', '操作人', '操作', '对象', '变更', 'IP']);
    const cells = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(cells[3]).toBe('封禁用户');
    expect(String(cells[4])).toContain(`用户 #${user.id}`);
    expect(String(cells[5])).toContain('状态：正常 → 已封禁');
    expect(JSON.stringify(cells)).not.toContain(user.phone);
  });
});

describe('diffChanges', () => {
  it('keeps only what changed, in words', () => {
    expect(diffChanges('plan.update', { name: 'a', price: 100 }, { name: 'b', price: 100 })).toEqual([
      { field: 'name', label: '名称', before: 'a', after: 'b' },
    ]);
    expect(
      diffChanges('users.update.admin', null, { isAdmin: true, vipExpiresAt: '2026-01-01T00:00:00.000Z' }),
    ).toEqual([
      { field: 'isAdmin', label: '管理员', before: null, after: '是' },
      { field: 'vipExpiresAt', label: '会员到期时间', before: null, after: '2026-01-01 08:00:00' },
    ]);
    // A list (a batch) is one row of content.
    expect(diffChanges('unsplash.move', [{ id: 1, enabled: true }], { ids: [1] })[0]).toMatchObject({ label: '内容' });
  });

  it('reads codes by their labels, durations as durations, apps and channels by name, a filter in words', () => {
    const change = (action: string, before: object | null, after: object) => diffChanges(action, before, after)[0];
    expect(change('reviewreward.reject', { status: 'pending' }, { status: 'rejected' })).toMatchObject({
      label: '状态',
      before: '待审核',
      after: '已驳回',
    });
    // The same field name reads by its own record's meaning: a review reward's coins are not a balance.
    expect(change('reviewreward.settings', { coins: 100 }, { coins: 200 })).toMatchObject({ label: '奖励金币' });
    expect(change('order.refund', null, { vipTakenMs: 2678399726 })).toMatchObject({
      label: '收回的会员时长',
      after: '30 天 23 小时',
    });
    expect(change('a11t.make', null, { type: 'number' })).toMatchObject({ label: '类型', after: '数字' });
    // Apps are data: their names come from the registry the route passes, for one app or a list.
    const names: Record<string, string> = { tailor: '滚动截屏', quote: '名言' };
    const named = (code: string) => names[code] ?? code;
    expect(diffChanges('help.make', null, { app: 'tailor' }, named)[0]).toMatchObject({ after: '滚动截屏' });
    expect(diffChanges('selfapp.update', null, { apps: ['tailor', 'quote'] }, named)[0]).toMatchObject({
      label: '展示位置',
      after: '滚动截屏、名言',
    });
    expect(change('help.make', null, { app: 'quote' })).toMatchObject({ after: 'quote' });
    expect(change('version.copy', null, { channels: ['huawei', 'xiaomi'] })).toMatchObject({
      after: '华为应用市场、小米应用商店',
    });
    expect(change('users.reset.password', null, { mustChangePassword: true })).toMatchObject({ label: '需修改密码' });
    expect(diffChanges('users.update.admin', null, { via: 'command-line' })[0]).toMatchObject({
      label: '操作途径',
      after: '命令行',
    });
    expect(change('unsplash.make', null, { width: 10, mime: 'image/png' })).toMatchObject({ label: '宽度（像素）' });
    expect(diffChanges('unsplash.make', null, { mime: 'image/png' })[0]).toMatchObject({ after: 'PNG 图片' });
    expect(change('allocation.init', null, { adminId: 1 })).toMatchObject({ label: '管理员 ID' });
    expect(
      change('users.export', null, { filter: { status: 'all', channel: 'huawei', sort: 'coins', order: 'descend' } }),
    ).toMatchObject({ after: '状态：全部，渠道：华为应用市场，排序：金币余额，排序方向：降序' });
    // A removal names the fields its record's other endpoints title.
    expect(change('version.remove', { versionCode: 200 }, {})).toMatchObject({ label: '版本号' });
    // Digests and storage keys stay in the raw data, not in the list of changes.
    expect(diffChanges('files.remove', { sha256: 'ab', key: '2026-11/x.png' }, {})).toEqual([]);
  });

  it('knows the Chinese words of every code an audited or exported endpoint declares', () => {
    expect(codesWithoutWords).toEqual([]);
  });
});
