import { channels, DEFAULT_APP } from '@appdesk/contract/constants';
import Database from 'better-sqlite3';
import pg from 'pg';
import { appOfId, benchApps, hasColumn, SECOND_APP } from './apps';
import { rng } from './fixtures';

/** The bench's apps among those registered (a schema from before issue 29 has no apps table: the first). */
function appsIn(registered: string[]): string[] {
  const apps = benchApps.filter((app) => registered.includes(app));
  return apps.length > 0 ? apps : [DEFAULT_APP];
}

function sqliteApps(db: Database.Database): string[] {
  if (!hasColumn(db, 'apps', 'code')) return [];
  return (db.prepare('select code from apps').all() as { code: string }[]).map((row) => row.code);
}

/**
 * Orders and redemptions for the dashboard benchmark, added to a database the server has migrated
 * (the orders and exchange tables are a feature's): `orders` orders over the last two years (most
 * paid, some refunded, cancelled or pending) and `records` redemptions of 20 items over the last
 * year, by seeded users 1..users. The same seed gives the same rows on SQLite and PostgreSQL.
 * Inserted through the tables' triggers, so the kept counts and the dashboard's counters follow.
 */
export interface CommerceRows {
  users: number;
  orders: number;
  records: number;
  seed?: number;
}

const DAY = 86_400_000;
const ORDER_COLUMNS = [
  'order_no',
  'user_id',
  'plan_id',
  'plan_name',
  'app',
  'channel',
  'pay_method',
  'amount',
  'duration_days',
  'bonus_coins',
  'status',
  'created_at',
  'expires_at',
  'paid_at',
  'updated_at',
] as const;
const RECORD_COLUMNS = [
  'record_no',
  'user_id',
  'item_id',
  'item_name',
  'kind',
  'value',
  'cost',
  'status',
  'created_at',
  'updated_at',
] as const;
const PRICES = [600, 1800, 6800, 19_800];
const ITEMS = 20;
const itemName = (i: number) => `压测商品 ${String(i + 1).padStart(2, '0')}`;

/** Each app's plan: an order is placed in its user's app (lib/apps.ts), with that app's plan. */
type Plans = Map<string, number>;

function* orderRows(o: CommerceRows, plans: Plans, now: number) {
  const r = rng((o.seed ?? 7) ^ 0x5eed);
  const twoApps = plans.has(SECOND_APP.code);
  for (let i = 0; i < o.orders; i++) {
    const created = now - 2 * 365 * DAY + Math.floor(((i + r()) / o.orders) * 2 * 365 * DAY);
    const roll = r();
    const status = roll < 0.8 ? 'paid' : roll < 0.85 ? 'refunded' : roll < 0.97 ? 'cancelled' : 'pending';
    const paidAt = status === 'paid' || status === 'refunded' ? created + Math.floor(r() * 10 * 60_000) : null;
    const price = PRICES[Math.floor(r() * PRICES.length)];
    const userId = 1 + Math.floor(r() * o.users);
    const app = twoApps ? appOfId(userId) : DEFAULT_APP;
    yield [
      `BENCH${String(i).padStart(9, '0')}`,
      userId,
      plans.get(app),
      '压测会员',
      app,
      channels[Math.floor(r() * channels.length)].value,
      r() < 0.6 ? 'wechat' : 'alipay',
      price,
      30,
      0,
      status,
      created,
      created + 30 * 60_000,
      paidAt,
      paidAt ?? created,
    ];
  }
}

function* recordRows(o: CommerceRows, itemIds: number[], now: number) {
  const r = rng((o.seed ?? 7) ^ 0xe8c4);
  for (let i = 0; i < o.records; i++) {
    const created = now - 365 * DAY + Math.floor(((i + r()) / o.records) * 365 * DAY);
    const k = Math.floor(r() ** 2 * ITEMS); // a few items are far more popular
    const roll = r();
    yield [
      `BX${String(i).padStart(10, '0')}`,
      1 + Math.floor(r() * o.users),
      itemIds[k],
      itemName(k),
      'physical',
      0,
      100 * (k + 1),
      roll < 0.7 ? 'done' : roll < 0.9 ? 'shipped' : roll < 0.97 ? 'waiting' : 'cancelled',
      created,
      created,
    ];
  }
}

/** An item's row; with `app` (exchange items belong to an app once the table has the column) its app last. */
function itemRow(i: number, now: number, app: boolean) {
  const row = [itemName(i), '', '压测用商品', 'physical', 0, 100 * (i + 1), null, 0, null, null, i, 1, now, now];
  return app ? [...row, appOfId(i + 1)] : row;
}
const itemColumns = (app: boolean) =>
  `name, image, description, kind, value, cost_coins, stock, per_user_limit, starts_at, ends_at, sort, enabled, created_at, updated_at${app ? ', app' : ''}`;
const PLAN_COLUMNS =
  'app, name, description, price, original_price, duration_days, bonus_coins, sort, on_sale, created_at, updated_at';

export function seedCommerceSqlite(file: string, o: CommerceRows): void {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = OFF');
  const now = Date.now();
  const insertPlan = db.prepare(
    `insert into plans (${PLAN_COLUMNS}) values (?, '压测会员', '', 1800, 0, 30, 0, 0, 1, ?, ?) returning id`,
  );
  const plans: Plans = new Map();
  for (const app of appsIn(sqliteApps(db))) plans.set(app, (insertPlan.get(app, now, now) as { id: number }).id);
  const insertOrder = db.prepare(
    `insert into orders (${ORDER_COLUMNS.join(', ')}) values (${ORDER_COLUMNS.map(() => '?').join(', ')})`,
  );
  const batch = db.transaction((rows: unknown[][]) => {
    for (const row of rows) insertOrder.run(...row);
  });
  let rows: unknown[][] = [];
  for (const row of orderRows(o, plans, now)) {
    rows.push(row);
    if (rows.length === 20_000) {
      batch(rows);
      rows = [];
    }
  }
  batch(rows);
  const itemsByApp = plans.has(SECOND_APP.code) && hasColumn(db, 'exchange_items', 'app');
  const insertItem = db.prepare(
    `insert into exchange_items (${itemColumns(itemsByApp)}) values (${itemRow(0, now, itemsByApp)
      .map(() => '?')
      .join(', ')}) returning id`,
  );
  const itemIds = Array.from(
    { length: ITEMS },
    (_, i) => (insertItem.get(...itemRow(i, now, itemsByApp)) as { id: number }).id,
  );
  const insertRecord = db.prepare(
    `insert into exchange_records (${RECORD_COLUMNS.join(', ')}) values (${RECORD_COLUMNS.map(() => '?').join(', ')})`,
  );
  db.transaction(() => {
    for (const row of recordRows(o, itemIds, now)) insertRecord.run(...row);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export async function seedCommercePostgres(url: string, o: CommerceRows): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const now = Date.now();
    const hasApps = (await client.query(`select to_regclass('apps') as t`)).rows[0].t !== null;
    const registered = hasApps
      ? (await client.query<{ code: string }>('select code from apps')).rows.map((row) => row.code)
      : [];
    const plans: Plans = new Map();
    for (const app of appsIn(registered)) {
      const plan = await client.query<{ id: number }>(
        `insert into plans (${PLAN_COLUMNS}) values ($1, '压测会员', '', 1800, 0, 30, 0, 0, 1, $2, $2) returning id`,
        [app, now],
      );
      plans.set(app, plan.rows[0].id);
    }
    const itemsByApp =
      plans.has(SECOND_APP.code) &&
      (
        await client.query(
          `select 1 from information_schema.columns
             where table_schema = current_schema() and table_name = 'exchange_items' and column_name = 'app'`,
        )
      ).rowCount === 1;
    const insertMany = async (table: string, columns: readonly string[], rows: unknown[][]) => {
      if (rows.length === 0) return;
      const values = rows.map((_, i) => `(${columns.map((__, j) => `$${i * columns.length + j + 1}`).join(', ')})`);
      await client.query(`insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`, rows.flat());
    };
    await client.query('begin');
    let rows: unknown[][] = [];
    for (const row of orderRows(o, plans, now)) {
      rows.push(row);
      if (rows.length === 2_000) {
        await insertMany('orders', ORDER_COLUMNS, rows);
        rows = [];
      }
    }
    await insertMany('orders', ORDER_COLUMNS, rows);
    const itemIds: number[] = [];
    for (let i = 0; i < ITEMS; i++) {
      const row = itemRow(i, now, itemsByApp);
      const item = await client.query<{ id: number }>(
        `insert into exchange_items (${itemColumns(itemsByApp)}) values (${row.map((_, j) => `$${j + 1}`).join(', ')}) returning id`,
        row,
      );
      itemIds.push(item.rows[0].id);
    }
    rows = [];
    for (const row of recordRows(o, itemIds, now)) {
      rows.push(row);
      if (rows.length === 2_000) {
        await insertMany('exchange_records', RECORD_COLUMNS, rows);
        rows = [];
      }
    }
    await insertMany('exchange_records', RECORD_COLUMNS, rows);
    await client.query('commit');
    await client.query('vacuum analyze orders');
    await client.query('vacuum analyze exchange_records');
    await client.query('vacuum analyze stat_counts');
  } finally {
    await client.end();
  }
}
