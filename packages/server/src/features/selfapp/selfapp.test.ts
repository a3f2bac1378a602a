import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tinyPng } from '../../../test/harness';
import { unreconciledUsers } from '../../core/ledger';
import { newUserRow } from '../../core/new-user';
import { createSession } from '../../core/sessions';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
let phoneSeq = 0;
type Answer<T> = { code: number; message: string; data?: T };
const call = <T>(path: string, body: unknown, token = '') =>
  fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<Answer<T>>);
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await call<T>(path, body, token);
  expect([answer.code, answer.message]).toEqual([200, answer.message]);
  return answer.data as T;
};
type Selfapp = { id: number; name: string; icon: string; rewardCoins: number; apps: string[] };
const makeApp = (body: Record<string, unknown>) =>
  ok<{ selfapp: Selfapp }>('selfapp/make', {
    name: '推广应用',
    packageId: `com.example.app${phoneSeq++}`,
    androidUrl: 'https://example.com/app.apk',
    iosUrl: 'https://apps.apple.com/cn/app/id1',
    ...body,
  }).then((d) => d.selfapp);

/** App users with a session, made without argon2. */
async function appUsers(count: number) {
  const users: { id: number; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const phone = `198${String(Date.now() % 1_000_000).padStart(6, '0')}${String(phoneSeq++ % 100).padStart(2, '0')}`;
    const { id } = await db()
      .insertInto('users')
      .values(newUserRow({ phone, password_hash: 'x' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    users.push({ id, token: await createSession(db(), id, { ip: null, userAgent: null }) });
  }
  return users;
}
const device = { app: 'tailor', platform: 'android', channel: 'huawei' };
const report = (id: number, action: string, deviceId: string, token = '') =>
  call<{ rewarded: number; coins: number | null }>('selfapp/report', { id, action, deviceId, ...device }, token);
const balance = async (id: number) =>
  Number((await db().selectFrom('users').select('coins').where('id', '=', id).executeTakeFirstOrThrow()).coins);
const paidRows = (userId: number) =>
  db()
    .selectFrom('coin_records')
    .select(['delta', 'reason'])
    .where('user_id', '=', userId)
    .where('reason', '=', 'selfapp')
    .execute();

describe('promotion apps', () => {
  it('are set up by operators with an uploaded icon and refused without any address', async () => {
    const icon = await server.upload('/api/finder/single', 'file', tinyPng, 'icon.png', admin);
    const url = (icon.body.data as { url: string }).url;
    const made = await makeApp({ name: '极简记账', icon: url, rewardCoins: 50, description: '三秒记一笔' });
    expect(made).toMatchObject({ name: '极简记账', icon: url, rewardCoins: 50, apps: ['tailor'] });
    const none = await call('selfapp/make', { name: '没有地址' }, admin);
    expect(none).toMatchObject({ code: 400, message: '请至少填写安卓包名、安卓下载地址或 App Store 地址中的一项' });
    const badPackage = await call('selfapp/make', { name: '包名', packageId: 'not a package' }, admin);
    expect(badPackage).toMatchObject({ code: 400, message: '安卓包名应形如 com.example.app' });
    const updated = await ok<{ selfapp: Selfapp }>('selfapp/update', { id: made.id, rewardCoins: 60 });
    expect(updated.selfapp.rewardCoins).toBe(60);
    const page = await ok<{ list: { id: number }[]; total: number }>('selfapp/fetch/page', { app: 'tailor' });
    expect(page.list.map((s) => s.id)).toContain(made.id);
  });

  it('are listed for the calling app and platform, never the app itself', async () => {
    const androidOnly = await makeApp({ name: '仅安卓', iosUrl: '', sort: 1 });
    const iosOnly = await makeApp({ name: '仅苹果', packageId: '', androidUrl: '', sort: 2 });
    const itself = await makeApp({ name: '滚动截屏自己', packageId: 'com.appdesk.tailor', sort: 3 });
    const off = await makeApp({ name: '已停用', enabled: false });
    const android = await ok<{ list: { id: number; url: string }[] }>(
      'selfapp/fetch/list',
      { app: 'tailor', platform: 'android' },
      '',
    );
    const ids = android.list.map((s) => s.id);
    expect(ids).toContain(androidOnly.id);
    expect(ids).not.toContain(iosOnly.id);
    expect(ids).not.toContain(itself.id);
    expect(ids).not.toContain(off.id);
    const ios = await ok<{ list: { id: number; packageId: string }[] }>(
      'selfapp/fetch/list',
      { app: 'tailor', platform: 'ios' },
      '',
    );
    expect(ios.list.map((s) => s.id)).toEqual(expect.arrayContaining([iosOnly.id]));
    expect(ios.list.map((s) => s.id)).not.toContain(androidOnly.id);
    expect(ios.list.every((s) => s.packageId === '')).toBe(true);
  });

  it('pay an install once per user, however often and concurrently it is reported', async () => {
    const promoted = await makeApp({ name: '天气小助手', rewardCoins: 50 });
    const [alice, bob] = await appUsers(2);
    expect(await report(promoted.id, 'show', 'dev-anon')).toMatchObject({ code: 200, data: { rewarded: 0 } });
    expect((await report(promoted.id, 'show', 'dev-a', alice.token)).code).toBe(200);
    expect((await report(promoted.id, 'click', 'dev-a', alice.token)).code).toBe(200);
    expect((await report(promoted.id, 'show', 'dev-b', bob.token)).code).toBe(200);
    expect((await report(promoted.id, 'click', 'dev-b', bob.token)).code).toBe(200);
    // An install without signing in is recorded and pays nothing.
    expect(await report(promoted.id, 'install', 'dev-anon')).toMatchObject({ data: { rewarded: 0, coins: null } });

    const race = await Promise.all(
      [alice, bob].flatMap((u) => Array.from({ length: 20 }, () => report(promoted.id, 'install', 'dev', u.token))),
    );
    expect(race.every((r) => r.code === 200)).toBe(true);
    expect(race.filter((r) => r.data?.rewarded === 50)).toHaveLength(2);
    for (const u of [alice, bob]) {
      expect(await balance(u.id)).toBe(50);
      expect(await paidRows(u.id)).toEqual([{ delta: 50, reason: 'selfapp' }]);
    }
    // Reported again later: still paid once.
    expect(await report(promoted.id, 'install', 'dev', alice.token)).toMatchObject({ data: { rewarded: 0 } });
    expect(await balance(alice.id)).toBe(50);
    expect(await unreconciledUsers(db())).toEqual([]);

    const listed = await ok<{ list: { id: number; rewarded: boolean }[] }>(
      'selfapp/fetch/list',
      { app: 'tailor', platform: 'android' },
      alice.token,
    );
    expect(listed.list.find((s) => s.id === promoted.id)?.rewarded).toBe(true);

    const totals = await ok<{
      list: { selfappId: number; shows: number; clicks: number; installs: number; coins: number }[];
    }>('selfapp/record/fetch/totals', { selfappId: promoted.id });
    expect(totals.list).toEqual([
      expect.objectContaining({
        selfappId: promoted.id,
        selfappName: '天气小助手',
        shows: 3,
        clicks: 2,
        installs: 42,
        coins: 100,
        rewardedUsers: 2,
        clickRate: 0.6667,
        installRate: 21,
      }),
    ]);
    const installs = await ok<{ total: number; list: { coins: number; userPhone: string | null }[] }>(
      'selfapp/record/fetch/page',
      { selfappId: promoted.id, action: 'install', sort: 'coins', size: 5 },
    );
    expect(installs.total).toBe(42);
    expect(installs.list[0]?.coins).toBe(50);
    expect(installs.list[0]?.userPhone).toMatch(/^198\*{4}\d{4}$/);
    const channel = await ok<{ total: number }>('selfapp/record/fetch/page', {
      selfappId: promoted.id,
      channel: 'xiaomi',
    });
    expect(channel.total).toBe(0);
    const future = await ok<{ list: unknown[] }>('selfapp/record/fetch/totals', {
      selfappId: promoted.id,
      from: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(future.list).toEqual([]);
  });

  it('refuse a report of an unknown app and export the filtered records', async () => {
    expect(await report(999_999, 'show', 'dev')).toMatchObject({ code: 404, message: '推广应用不存在' });
    const [carol] = await appUsers(1);
    expect(await report(999_999, 'install', 'dev', carol.token)).toMatchObject({ code: 404 });
    const promoted = await makeApp({ name: '导出测试', rewardCoins: 0 });
    await report(promoted.id, 'show', 'dev-x');
    await report(promoted.id, 'install', 'dev-x', carol.token);
    expect(await balance(carol.id)).toBe(0);
    const res = await fetch(`${server.url}/api/selfapp/record/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin },
      body: JSON.stringify({ selfappId: promoted.id }),
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const rows = book.worksheets[0]?.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows).toHaveLength(3);
    // Newest first, as the list shows them.
    expect(rows[1]?.slice(1, 4)).toEqual([expect.any(Number), '导出测试', '安装']);
    expect(rows[2]?.slice(1, 4)).toEqual([expect.any(Number), '导出测试', '展示']);

    // Removing the app keeps its records, shown as a deleted app.
    await ok('selfapp/remove', { id: promoted.id });
    const after = await ok<{ list: { selfappName: string }[] }>('selfapp/record/fetch/page', {
      selfappId: promoted.id,
    });
    expect(after.list.map((r) => r.selfappName)).toEqual(['', '']);
  });
});
