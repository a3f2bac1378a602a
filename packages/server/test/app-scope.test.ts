/**
 * Data scope by app (docs/permissions.md): an operator whose role reaches only 名言 (`quote`) gets
 * nothing of 滚动截屏 (`tailor`) from any list, export, total or record by id, and changes none of
 * its records; an operator of every app sees both. Both databases (api-sqlite, api-postgres).
 */
import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotTables, startServer, type TestServer } from './harness';
import { addOperator } from './operators';
import { APP_NAMES, type AppRecords, ok, type ScopeWorld, scopeWorld } from './scope-world';

let server: TestServer;
let world: ScopeWorld;
beforeAll(async () => {
  server = await startServer();
  world = await scopeWorld(server);
});
afterAll(async () => {
  await server.close();
});

const quoteOperator = () => world.quoteOperator.token;
type Row = Record<string, unknown>;
type Page = { list: Row[]; total: number };
const byApp = (row: Row) => row.app;

/** Every app-scoped list of the console, how a row names its app, and whether the list takes `app`. */
const lists: [ApiPath, (row: Row) => unknown, boolean][] = [
  ['/api/a11t/fetch/page', byApp, true],
  ['/api/exchange/item/fetch/page', byApp, true],
  ['/api/exchange/record/fetch/page', byApp, true],
  ['/api/feedback/fetch/page', byApp, true],
  ['/api/feedbackv2/fetch/page', byApp, true],
  ['/api/help/fetch/page', byApp, true],
  ['/api/iap/fetch/page', byApp, true],
  ['/api/iaprecord/fetch/page', byApp, true],
  ['/api/message/fetch/page', byApp, true],
  ['/api/order/fetch/page', byApp, true],
  ['/api/payment/fetch/page', byApp, true],
  ['/api/plan/fetch/page', byApp, true],
  ['/api/reviewreward/fetch/page', byApp, true],
  ['/api/selfapp/fetch/page', (row) => (row.apps as string[]).join(','), true],
  ['/api/selfapp/record/fetch/page', byApp, true],
  ['/api/users/fetch/page', byApp, true],
  ['/api/version/fetch/page', byApp, true],
  ['/api/vip/fetch/page', byApp, true],
  ['/api/sessions/fetch/page', byApp, false],
  ['/api/apps/fetch/page', (row) => row.code, false],
];

describe('lists, exports and totals', () => {
  it.each(lists)('%s: only 名言 for its operator, both apps for an administrator', async (path, appOf, takesApp) => {
    const mine = await ok<Page>(server, path, {}, quoteOperator());
    expect(new Set(mine.list.map(appOf)), path).toEqual(new Set(['quote']));
    expect(mine.total).toBe(mine.list.length);
    const all = await ok<Page>(server, path, {}, world.admin);
    expect(all.list.map(appOf)).toEqual(expect.arrayContaining(['tailor', 'quote']));
    if (takesApp) {
      const asked = await server.call(path, { app: 'tailor' }, quoteOperator());
      expect([asked.body.code, asked.body.message]).toEqual([403, `没有应用「${APP_NAMES.tailor}」的权限`]);
    }
  });

  it.each(lists)('%s: its export holds the rows of the list and names no other app', async (path) => {
    const exportPath = path.replace(/\/fetch\/page$/, '/export') as ApiPath;
    expect((endpoints[exportPath] as EndpointDef | undefined)?.download, exportPath).toBe('xlsx');
    const { total } = await ok<Page>(server, path, {}, quoteOperator());
    const sheet = await exported(exportPath, quoteOperator());
    expect(sheet.rows.length, exportPath).toBe(total);
    const named = sheet.appCells();
    expect(named.length, `${exportPath} has a column naming the app`).toBeGreaterThan(0);
    expect(named.filter((cell) => cell.includes(APP_NAMES.tailor))).toEqual([]);
    expect(named.some((cell) => cell.includes(APP_NAMES.quote))).toBe(true);
  });

  it('totals count only the operator’s apps', async () => {
    const totals = (token: string) =>
      ok<{ count: number; paidAmount: number }>(server, '/api/order/fetch/totals', {}, token);
    expect(await totals(quoteOperator())).toMatchObject({ count: 1, paidAmount: 9800 });
    expect(await totals(world.admin)).toMatchObject({ count: 2, paidAmount: 19_600 });
    const shows = async (token: string) =>
      (await ok<{ sum: { shows: number } }>(server, '/api/selfapp/record/fetch/totals', {}, token)).sum.shows;
    expect([await shows(quoteOperator()), await shows(world.admin)]).toEqual([1, 2]);
    const box = (token: string) => ok<{ all: number; normal: number }>(server, '/api/users/fetch/page/box', {}, token);
    expect(await box(quoteOperator())).toMatchObject({ all: 1, normal: 1 });
    expect((await box(world.admin)).all).toBeGreaterThan(2);
    const options = (token: string) =>
      ok<{ list: { code: string }[] }>(server, '/api/apps/fetch/options', {}, token).then((a) =>
        a.list.map((o) => o.code),
      );
    expect(await options(quoteOperator())).toEqual(['quote']);
    expect(await options(world.admin)).toEqual(['tailor', 'quote']);
  });

  it('an operator whose roles reach no app gets empty lists', async () => {
    const none = await addOperator(server, { permissions: ['order.read', 'users.read'], apps: [] });
    expect((await ok<Page>(server, '/api/order/fetch/page', {}, none)).total).toBe(0);
    expect((await ok<Page>(server, '/api/users/fetch/page', {}, none)).total).toBe(0);
  });
});

/** Records by id: [path, the record of `tailor` it reads, and the answer outside the scope]. */
const reads: [ApiPath, keyof AppRecords][] = [
  ['/api/a11t/fetch/revisions', 'a11t'],
  ['/api/exchange/item/fetch/detail', 'item'],
  ['/api/exchange/record/fetch/phone', 'exchange'],
  ['/api/feedbackv2/fetch/detail', 'thread'],
  ['/api/help/fetch/detail', 'help'],
  ['/api/iap/fetch/detail', 'iap'],
  ['/api/iaprecord/fetch/detail', 'iapRecord'],
  ['/api/order/fetch/detail', 'order'],
  ['/api/plan/fetch/detail', 'plan'],
  ['/api/selfapp/fetch/detail', 'selfapp'],
  ['/api/users/fetch/detail', 'user'],
  ['/api/users/fetch/phone', 'user'],
  ['/api/users/fetch/other/info', 'user'],
  ['/api/version/fetch/detail', 'version'],
];

describe('records by id', () => {
  it.each(reads)('%s: a 滚动截屏 record is not there for the 名言 operator', async (path, kind) => {
    const theirs = await server.call(path, { id: world.records.tailor[kind] }, quoteOperator());
    expect(theirs.body.code, theirs.text).toBe(404);
    await ok(server, path, { id: world.records.quote[kind] }, quoteOperator());
    await ok(server, path, { id: world.records.tailor[kind] }, world.admin);
  });

  it('the app itself: 应用管理 shows and changes only the operator’s apps', async () => {
    const tailorApp = (
      await ok<{ list: { id: number; code: string }[] }>(server, '/api/apps/fetch/page', {}, world.admin)
    ).list.find((a) => a.code === 'tailor');
    const detail = await server.call('/api/apps/fetch/detail', { id: tailorApp?.id }, quoteOperator());
    expect(detail.body.code).toBe(404);
    const made = await server.call('/api/apps/make', { code: 'poster', name: '海报' }, quoteOperator());
    expect([made.body.code, made.body.message]).toEqual([403, '只有可管理全部应用的操作员才能登记新应用']);
  });
});

/** Changes of a `tailor` record by its id (the input names the record, not an app): refused, nothing written. */
const writes: [ApiPath, (r: AppRecords) => Record<string, unknown>][] = [
  ['/api/a11t/update', (r) => ({ id: r.a11t, value: 'true' })],
  ['/api/a11t/rollback', (r) => ({ id: r.a11t, revision: 1 })],
  ['/api/a11t/remove', (r) => ({ id: r.a11t })],
  ['/api/exchange/item/update', (r) => ({ id: r.item, name: '改名' })],
  ['/api/exchange/item/copy', (r) => ({ id: r.item })],
  ['/api/exchange/code/import', (r) => ({ itemId: r.item, text: 'CODE-1' })],
  ['/api/exchange/record/make', (r) => ({ userId: r.user, itemId: r.item })],
  ['/api/exchange/record/ship', (r) => ({ id: r.exchange })],
  ['/api/exchange/record/cancel', (r) => ({ id: r.exchange })],
  ['/api/feedback/reply', (r) => ({ id: r.feedback })],
  ['/api/feedback/handle', (r) => ({ id: r.feedback })],
  ['/api/feedbackv2/reply', (r) => ({ id: r.thread })],
  ['/api/feedbackv2/read', (r) => ({ id: r.thread })],
  ['/api/feedbackv2/assign', (r) => ({ id: r.thread, assigneeId: null })],
  ['/api/feedbackv2/close', (r) => ({ id: r.thread })],
  ['/api/help/update', (r) => ({ id: r.help, title: '改名' })],
  ['/api/help/publish', (r) => ({ id: r.help })],
  ['/api/help/unpublish', (r) => ({ id: r.help })],
  ['/api/help/remove', (r) => ({ id: r.help })],
  ['/api/iap/update', (r) => ({ id: r.iap, name: '改名' })],
  ['/api/message/update', (r) => ({ id: r.message, title: '改名' })],
  ['/api/message/block', (r) => ({ id: r.message })],
  ['/api/order/refund', (r) => ({ id: r.order })],
  ['/api/order/cancel', (r) => ({ id: r.order })],
  ['/api/order/pay', (r) => ({ id: r.order })],
  ['/api/plan/update', (r) => ({ id: r.plan, name: '改名' })],
  ['/api/reviewreward/approve', (r) => ({ id: r.claim })],
  ['/api/reviewreward/reject', (r) => ({ id: r.claim })],
  ['/api/selfapp/update', (r) => ({ id: r.selfapp, name: '改名' })],
  ['/api/selfapp/remove', (r) => ({ id: r.selfapp })],
  ['/api/sessions/revoke', (r) => ({ id: r.session })],
  ['/api/version/update', (r) => ({ id: r.version, changelog: '改' })],
  ['/api/version/publish', (r) => ({ id: r.version })],
  ['/api/version/copy', (r) => ({ id: r.version, channels: ['xiaomi'] })],
  ['/api/version/remove', (r) => ({ id: r.version })],
];
/** Accounts are of the app they signed up in, and one outside the scope is not there (404). */
const accountWrites: [ApiPath, (r: AppRecords) => Record<string, unknown>][] = [
  ['/api/users/block', (r) => ({ id: r.user })],
  ['/api/users/logout/all', (r) => ({ id: r.user })],
  ['/api/users/update/coins', (r) => ({ id: r.user })],
  ['/api/users/reset/password', (r) => ({ id: r.user })],
];

/** A call's example input without its app: the refusal must come from the record's app. */
const example = (path: ApiPath) => {
  const { app: _app, ...input } = ((endpoints[path] as EndpointDef).example ?? {}) as Record<string, unknown>;
  return input;
};

describe('changes', () => {
  it('every change of a 滚动截屏 record by the 名言 operator is refused, and nothing is written', async () => {
    const before = await snapshotTables(server, ['sessions']);
    const refused = [];
    for (const [path, input] of [...writes, ...accountWrites]) {
      const answer = await server.call(path, { ...example(path), ...input(world.records.tailor) }, quoteOperator());
      refused.push([path, answer.body.code, answer.body.message]);
    }
    expect(refused).toEqual([
      ...writes.map(([path]) => [path, 403, `没有应用「${APP_NAMES.tailor}」的权限`]),
      ...accountWrites.map(([path]) => [path, 404, '用户不存在']),
    ]);
    expect(await snapshotTables(server, ['sessions'])).toBe(before);
  });

  it('the same operator changes 名言’s records, and a batch refuses only the other app’s', async () => {
    const { quote, tailor } = world.records;
    await ok(server, '/api/plan/update', { id: quote.plan, name: '名言年卡' }, quoteOperator());
    const batch = await ok<{ results: { id: number; ok: boolean; code?: number }[] }>(
      server,
      '/api/help/unpublish/batch',
      { ids: [quote.help, tailor.help] },
      quoteOperator(),
    );
    expect(batch.results).toEqual([
      { id: quote.help, ok: true },
      { id: tailor.help, ok: false, code: 403, message: `没有应用「${APP_NAMES.tailor}」的权限` },
    ]);
    const blocked = await ok<{ count: number }>(
      server,
      '/api/users/block/batch',
      { ids: [tailor.user, quote.user], reason: '测试' },
      quoteOperator(),
    );
    expect(blocked.count).toBe(1);
    const rows = await server.app.services.db
      .selectFrom('users')
      .select(['id', 'status'])
      .where('id', 'in', [tailor.user, quote.user])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['normal', 'blocked']);
    await ok(server, '/api/users/unblock', { id: quote.user }, quoteOperator());
  });
});

/** An export as a sheet: its rows and the cells of the columns that name an app. */
async function exported(path: ApiPath, token: string) {
  const answer = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({}),
  });
  expect(answer.headers.get('content-type'), path).toContain('spreadsheetml');
  const ExcelJS = (await import('exceljs')).default;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await answer.arrayBuffer()) as ArrayBuffer);
  const sheet = book.worksheets[0];
  const headers = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
  const appColumns = headers.flatMap((h, i) => (/应用|展示位置/.test(h) ? [i] : []));
  const rows: string[][] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    rows.push((sheet.getRow(r).values as unknown[]).map((v) => String(v ?? '')));
  }
  return { rows, appCells: () => rows.flatMap((row) => appColumns.map((i) => row[i] ?? '')) };
}
