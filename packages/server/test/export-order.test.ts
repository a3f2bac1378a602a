import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportOrder, sortColumn } from '../src/features/users/list';
import { exportRows } from '../src/http/export';
import { startServer, type TestServer } from './harness';
import { seedListRows } from './list-rows';
import { addOperator } from './operators';
import { insertPhysicalItem } from './rows';

/**
 * Every export (`download: 'xlsx'` in the contract) writes its rows in the order its list shows
 * them, for each sort the list offers, in both directions (issue 27: the list newest first, the file
 * oldest first; by coins descending, the file by id).
 */
let server: TestServer;
let admin: string;
/** Every list and file up to the end of the seeding (an export adds its own row to the operation log). */
let to: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  await seed();
  to = new Date(Date.now() + 1).toISOString();
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const DAY = 86_400_000;
/** Sort values out of id order, with ties (the id then decides). */
const spread = [5, 1, 3, 3, 0, 4, 1];

async function seed() {
  const now = Date.now();
  const users: number[] = [];
  for (const [i, v] of spread.entries()) {
    const { id, phone, password } = await server.addUser();
    users.push(id);
    await server.login(phone, password); // a row of the login log
    // Imported accounts: sign-up times out of id order; some never active.
    await db()
      .updateTable('users')
      .set({ created_at: now - v * DAY, coins: v * 10, last_active_at: i % 3 === 0 ? null : now - v * 1000 })
      .where('id', '=', id)
      .execute();
  }
  const plan = await db()
    .insertInto('plans')
    .values({ app: 'tailor', name: '导出顺序', price: 100, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const item = await insertPhysicalItem(db(), '导出顺序商品', now);
  for (const [i, v] of spread.entries()) {
    const at = now - v * 3_600_000;
    const user_id = users[i];
    await db()
      .insertInto('orders')
      .values({
        order_no: `EXP${now}${i}`,
        user_id,
        plan_id: plan.id,
        plan_name: '导出顺序',
        app: 'tailor',
        channel: 'huawei',
        pay_method: 'alipay',
        amount: 100 + v,
        duration_days: 30,
        bonus_coins: 0,
        status: 'paid',
        created_at: at,
        expires_at: at + DAY,
        paid_at: at,
        updated_at: at,
      } as never)
      .execute();
    await db()
      .insertInto('coin_records')
      .values({ user_id, delta: v - 2 || 7, balance_after: 0, reason: 'admin', created_at: now })
      .execute();
    await db()
      .insertInto('exchange_records')
      .values({
        record_no: `EXR${now}${i}`,
        user_id,
        item_id: item.id,
        item_name: item.name,
        kind: 'physical',
        value: 0,
        cost: 10 + v,
        status: 'waiting',
        created_at: at,
        updated_at: at,
      } as never)
      .execute();
    await db()
      .insertInto('selfapp_records')
      .values({
        selfapp_id: 1,
        action: 'click',
        app: 'tailor',
        platform: 'android',
        channel: 'huawei',
        device_id: `d${i}`,
        user_id,
        coins: v,
        created_at: at,
      })
      .execute();
    // Writes (the operation log).
    await server.call('/api/users/update/coins', { id: user_id, delta: 1, reason: '导出顺序' }, admin);
  }
  await seedListRows(db(), spread, users, now);
  // 操作员管理's list: the first administrator and four operators without a role.
  for (let i = 0; i < 4; i++) await addOperator(server, { permissions: [] });
}

type Cell = string | number | null;
async function exportColumn(path: ApiPath, filter: Record<string, unknown>): Promise<Cell[]> {
  const answer = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: admin },
    body: JSON.stringify(filter),
  });
  expect(answer.headers.get('content-type'), path).toContain('spreadsheetml');
  const ExcelJS = (await import('exceljs')).default;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await answer.arrayBuffer()) as ArrayBuffer);
  const sheet = book.worksheets[0];
  const headers = (sheet.getRow(1).values as Cell[]).filter((v) => v !== undefined && v !== null).map(String);
  expect(headers.filter((h) => /\p{Script=Han}/u.test(h)).length, `${path}: Chinese headers`).toBeGreaterThan(1);
  const cells: Cell[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) cells.push(sheet.getRow(r).getCell(1).value as Cell);
  return cells;
}

async function listRows(path: ApiPath, filter: Record<string, unknown>) {
  const rows: Record<string, unknown>[] = [];
  for (let page = 0; ; page++) {
    const answer = await server.call(path, { ...filter, page, size: 1024 }, admin);
    expect(answer.body.code, `${path} ${answer.text.slice(0, 200)}`).toBe(200);
    const list = (answer.body.data as { list: Record<string, unknown>[] }).list;
    rows.push(...list);
    if (list.length < 1024) return rows;
  }
}

/** The sorts a list offers (its `sort` enum) and whether it takes a direction. */
function sortsOf(def: EndpointDef): { sorts: (string | undefined)[]; orders: (string | undefined)[] } {
  const shape = (def.input as unknown as { shape: Record<string, { def?: { innerType?: { options?: string[] } } }> })
    .shape;
  const sorts = shape.sort?.def?.innerType?.options ?? [undefined];
  return { sorts, orders: shape.order ? ['ascend', 'descend'] : [undefined] };
}

const exportPaths = (Object.keys(endpoints) as ApiPath[]).filter(
  (p) => (endpoints[p] as EndpointDef).download === 'xlsx',
);

/** Every list an operator pages through in the console: an admin endpoint answering `paged(…)`. */
const adminLists = (Object.keys(endpoints) as ApiPath[]).filter((p) => {
  const def = endpoints[p] as EndpointDef;
  const shape = (def.output as unknown as { shape?: Record<string, unknown> }).shape;
  return def.access === 'admin' && shape !== undefined && 'list' in shape && 'totalExact' in shape;
});

it('has an export for every admin list, and a list for every export', () => {
  expect(adminLists.length).toBeGreaterThanOrEqual(24);
  const missing = adminLists.filter((p) => !exportPaths.includes(p.replace(/\/fetch\/page$/, '/export') as ApiPath));
  expect(missing, 'admin lists without an export (contract: listExport)').toEqual([]);
  for (const p of exportPaths) expect(adminLists, p).toContain(p.replace(/\/export$/, '/fetch/page'));
});

for (const path of exportPaths) {
  it(`${path}: rows in the list's order, for every sort and direction`, async () => {
    const listPath = path.replace(/\/export$/, '/fetch/page') as ApiPath;
    const { sorts, orders } = sortsOf(endpoints[listPath] as EndpointDef);
    for (const sort of sorts) {
      for (const order of orders) {
        const filter = { to, ...(sort ? { sort } : {}), ...(order ? { order } : {}) };
        const [file, rows] = await Promise.all([exportColumn(path, filter), listRows(listPath, filter)]);
        expect(file.length, `${path} ${JSON.stringify(filter)}`).toBeGreaterThanOrEqual(5);
        // The list's field the file's first column shows (an id or a record number).
        const field = Object.keys(rows[0]).find(
          (k) => JSON.stringify(rows.map((r) => String(r[k])).sort()) === JSON.stringify(file.map(String).sort()),
        );
        expect(field, `${path}: the first column is one of the list's fields`).toBeDefined();
        expect(file.map(String), `${path} ${JSON.stringify(filter)}`).toEqual(rows.map((r) => String(r[field ?? ''])));
      }
    }
  });
}

it('walks past a batch in the list order, nulls lowest, on the users list', async () => {
  for (const sort of ['lastActiveAt', 'coins', 'createdAt'] as const) {
    for (const order of ['ascend', 'descend'] as const) {
      const walked: number[] = [];
      const rows = exportRows(
        exportOrder(sort, order),
        (batch) => batch(db().selectFrom('users').select(['id', 'created_at', 'last_active_at', 'coins'])).execute(),
        (row) => [row[sortColumn[sort]], row.id],
        (row) => row.id,
        2, // batches of two: every seek is crossed
      );
      for await (const id of rows) walked.push(id);
      const listed = (await listRows('/api/users/fetch/page', { sort, order })).map((r) => r.id);
      expect(walked, `${sort} ${order}`).toEqual(listed);
    }
  }
});
