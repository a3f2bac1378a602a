import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { unreconciledUsers } from '../src/core/ledger';
import type { Db } from '../src/db/index';
import { alipayBody, alipayFields, type PaymentKeys, wechatCallback } from './payment-signers';

/**
 * Concurrent money writes over HTTP, shared by the test (test/money-concurrency.test.ts) and the
 * bench (bench/money.ts): clients mixing an app's VIP redemption in the coin shop, orders paid by an
 * operator, and orders paid by signed Alipay / WeChat Pay notifications, on a few shared users, so
 * one user's row, the ledgers and the kept counters are written by several kinds at once.
 */
export type MoneyKind = 'redeem' | 'order' | 'notify';
export const moneyKinds: MoneyKind[] = ['redeem', 'order', 'notify'];

export interface MoneySite {
  url: string;
  adminToken: string;
  users: { id: number; token: string }[];
  planId: number;
  /** The plan's price in fen. */
  price: number;
  itemId: number;
  keys: PaymentKeys;
}

export interface MoneyRun {
  seconds: number;
  /** HTTP requests sent, and completed operations per kind (an order + its payment is one). */
  calls: number;
  done: Record<MoneyKind, number>;
  /** HTTP status ≥ 500 (not 503), and 503 answers (HTTP or the envelope's code) that were resent. */
  http500: number;
  unavailable: number;
  /** Answers that were neither success nor 503, with what they said. */
  unexpected: string[];
  /** What the server acknowledged: redemption record numbers and paid order numbers. */
  redeemed: string[];
  paidByOperator: string[];
  paidByNotification: string[];
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function post(url: string, path: string, body: unknown, token?: string, key?: string) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { token } : {}),
      ...(key ? { 'Idempotency-Key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: { code?: number; message?: string; data?: unknown } = {};
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, code: parsed.code, message: parsed.message, data: parsed.data as never, text };
}

async function must<T>(answer: Promise<{ code?: number; message?: string; data: T }>, what: string): Promise<T> {
  const a = await answer;
  if (a.code !== 200) throw new Error(`${what}: ${a.code} ${a.message}`);
  return a.data;
}

/** A plan, a 1-coin VIP item and `userCount` app users with a million coins each. */
export async function prepareMoneySite(
  url: string,
  adminToken: string,
  keys: PaymentKeys,
  userCount = 5,
): Promise<MoneySite> {
  const price = 1800;
  const { plan } = await must<{ plan: { id: number } }>(
    post(
      url,
      '/api/plan/make',
      { name: '并发月卡', price, durationDays: 30, bonusCoins: 100, onSale: true },
      adminToken,
    ),
    'plan/make',
  );
  const { item } = await must<{ item: { id: number } }>(
    post(
      url,
      '/api/exchange/item/make',
      { name: '1 天会员', kind: 'vip_days', value: 1, costCoins: 1, enabled: true },
      adminToken,
    ),
    'exchange/item/make',
  );
  const users: MoneySite['users'] = [];
  const stamp = String(Date.now() % 10_000).padStart(4, '0');
  for (let i = 0; i < userCount; i += 1) {
    const phone = `177${stamp}${String(i).padStart(4, '0')}`;
    const made = await must<{ token: string; user: { id: number } }>(
      post(url, '/api/users/register', { phone, password: digest('Money-mix-1'), app: 'tailor' }),
      'users/register',
    );
    await must(
      post(url, '/api/users/update/coins', { id: made.user.id, delta: 1_000_000, reason: '并发测试' }, adminToken),
      'users/update/coins',
    );
    users.push({ id: made.user.id, token: made.token });
  }
  return { url, adminToken, users, planId: plan.id, price, itemId: item.id, keys };
}

/** `clients` loops, each taking the kinds in turn, for `seconds`; 503 answers are resent (same key). */
export async function runMoneyMix(
  site: MoneySite,
  options: { kinds?: MoneyKind[]; clients?: number; seconds: number },
): Promise<MoneyRun> {
  const kinds = options.kinds ?? moneyKinds;
  const clients = options.clients ?? 10;
  const run: MoneyRun = {
    seconds: options.seconds,
    calls: 0,
    done: { redeem: 0, order: 0, notify: 0 },
    http500: 0,
    unavailable: 0,
    unexpected: [],
    redeemed: [],
    paidByOperator: [],
    paidByNotification: [],
  };
  const deadline = performance.now() + options.seconds * 1000;

  /** Sends until the answer is not a 503 (at most 20 times); undefined when every try was 503. */
  async function send<T extends { status: number; code?: number; text: string }>(
    what: string,
    attempt: () => Promise<T>,
  ): Promise<T | undefined> {
    for (let i = 0; i < 20; i += 1) {
      run.calls += 1;
      const answer = await attempt();
      if (answer.status >= 500 && answer.status !== 503) {
        run.http500 += 1;
        run.unexpected.push(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
        return undefined;
      }
      if (answer.status === 503 || answer.code === 503) {
        run.unavailable += 1;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
        continue;
      }
      return answer;
    }
    run.unexpected.push(`${what}: 503 twenty times`);
    return undefined;
  }
  const ok = <T extends { code?: number; message?: string }>(what: string, answer: T | undefined): answer is T => {
    if (!answer) return false;
    if (answer.code === 200) return true;
    run.unexpected.push(`${what}: ${answer.code} ${answer.message}`);
    return false;
  };

  async function makeOrder(user: MoneySite['users'][number], payMethod: 'alipay' | 'wechat') {
    const key = randomUUID();
    const made = await send('order/make', () =>
      post(site.url, '/api/order/make', { planId: site.planId, payMethod }, user.token, key),
    );
    if (!ok('order/make', made)) return undefined;
    return (made.data as unknown as { order: { id: number; orderNo: string } }).order;
  }

  async function once(kind: MoneyKind, user: MoneySite['users'][number], turn: number) {
    if (kind === 'redeem') {
      const key = randomUUID();
      const answer = await send('exchange/make', () =>
        post(site.url, '/api/exchange/make', { itemId: site.itemId }, user.token, key),
      );
      if (!ok('exchange/make', answer)) return;
      run.redeemed.push((answer.data as unknown as { record: { recordNo: string } }).record.recordNo);
    } else if (kind === 'order') {
      const order = await makeOrder(user, 'alipay');
      if (!order) return;
      const paid = await send('order/pay', () =>
        post(site.url, '/api/order/pay', { id: order.id, note: '并发测试收款' }, site.adminToken),
      );
      if (!ok('order/pay', paid)) return;
      run.paidByOperator.push(order.orderNo);
    } else {
      const method = turn % 2 === 0 ? 'alipay' : 'wechat';
      const order = await makeOrder(user, method);
      if (!order) return;
      const answer = await send(`${method}/notify`, () => notify(site, method, order.orderNo));
      if (!answer) return;
      const accepted = method === 'alipay' ? answer.text === 'success' : answer.status === 204;
      if (!accepted) {
        run.unexpected.push(`${method}/notify: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
        return;
      }
      run.paidByNotification.push(order.orderNo);
    }
    run.done[kind] += 1;
  }

  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let turn = 0; performance.now() < deadline; turn += 1) {
        const kind = kinds[(client + turn) % kinds.length] as MoneyKind;
        const user = site.users[(client + turn) % site.users.length] as MoneySite['users'][number];
        await once(kind, user, turn);
      }
    }),
  );
  return run;
}

async function notify(site: MoneySite, method: 'alipay' | 'wechat', orderNo: string) {
  if (method === 'alipay') {
    const yuan = (site.price / 100).toFixed(2);
    const response = await fetch(`${site.url}/api/payment/alipay/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: alipayBody(alipayFields(site.keys, orderNo, yuan), site.keys.alipayPrivateKey),
    });
    return { status: response.status, text: await response.text() };
  }
  const callback = wechatCallback(site.keys, orderNo, site.price);
  const response = await fetch(`${site.url}/api/payment/wechat/notify`, {
    method: 'POST',
    headers: callback.headers,
    body: callback.body,
  });
  return { status: response.status, text: await response.text() };
}

function chunks<T>(list: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** How many rows each ref id has in `table` for (reason, ref_type). */
async function refCounts(
  db: Db,
  table: 'vip_records' | 'coin_records',
  reason: string,
  refType: string,
  ids: string[],
) {
  const counts = new Map<string, number>();
  for (const part of chunks(ids)) {
    const rows = await db
      .selectFrom(table)
      .select(['ref_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('reason', '=', reason as never)
      .where('ref_type', '=', refType)
      .where('ref_id', 'in', part)
      .groupBy('ref_id')
      .execute();
    for (const r of rows) counts.set(String(r.ref_id), Number(r.n));
  }
  return counts;
}

/**
 * What must hold after a run, as a list of problems (empty when all is well): every acknowledged
 * write present once, every balance equal to its ledger's sum, each user's VIP records a chain
 * (each change starts from the expiry the previous one left), the kept counters equal to counts.
 */
export async function moneyProblems(db: Db, run: MoneyRun): Promise<string[]> {
  const problems: string[] = [];
  const once = (what: string, ids: string[], counts: Map<string, number>) => {
    for (const id of ids) if (counts.get(id) !== 1) problems.push(`${what} ${id}: ${counts.get(id) ?? 0} rows`);
  };
  once('redemption record', run.redeemed, await exchangeCounts(db, run.redeemed));
  once('redemption VIP', run.redeemed, await refCounts(db, 'vip_records', 'exchange', 'exchange', run.redeemed));
  once('redemption debit', run.redeemed, await refCounts(db, 'coin_records', 'exchange', 'exchange', run.redeemed));
  const paid = [...run.paidByOperator, ...run.paidByNotification];
  once('order VIP', paid, await refCounts(db, 'vip_records', 'order', 'order', paid));
  once('order coins', paid, await refCounts(db, 'coin_records', 'order', 'order', paid));
  for (const part of chunks(paid)) {
    const rows = await db.selectFrom('orders').select(['order_no', 'status']).where('order_no', 'in', part).execute();
    const unpaid = rows.filter((r) => r.status !== 'paid').map((r) => r.order_no);
    if (rows.length !== part.length || unpaid.length) problems.push(`orders not paid: ${unpaid.join(', ')}`);
  }
  for (const part of chunks(run.paidByNotification)) {
    const rows = await db
      .selectFrom('payment_notifications')
      .select('order_no')
      .where('status', '=', 'applied')
      .where('order_no', 'in', part)
      .execute();
    if (rows.length !== part.length) problems.push(`applied notifications: ${rows.length} of ${part.length}`);
  }
  for (const u of await unreconciledUsers(db)) problems.push(`user ${u.id}: balance ${u.coins}, ledger ${u.ledger}`);
  // VIP is per app: each (user, app) history is one chain, ending at that app's expiry.
  const vip = await db
    .selectFrom('vip_records')
    .select(['user_id', 'app', 'before_expires_at', 'after_expires_at'])
    .orderBy('user_id')
    .orderBy('id')
    .execute();
  const last = new Map<string, number | null>();
  for (const r of vip) {
    const key = `${r.user_id} in ${r.app}`;
    const before = r.before_expires_at === null ? null : Number(r.before_expires_at);
    if (last.has(key) && last.get(key) !== before) {
      problems.push(`user ${key}: a VIP change started from ${before}, not ${last.get(key)}`);
    }
    last.set(key, r.after_expires_at === null ? null : Number(r.after_expires_at));
  }
  for (const e of await db.selectFrom('vip_entitlements').select(['user_id', 'app', 'expires_at']).execute()) {
    const key = `${e.user_id} in ${e.app}`;
    if (last.has(key) && last.get(key) !== Number(e.expires_at)) {
      problems.push(`user ${key}: VIP expires at ${e.expires_at}, its history ends at ${last.get(key)}`);
    }
  }
  for (const table of ['coin_records', 'vip_records', 'orders', 'payment_notifications'] as const) {
    const kept = await db.selectFrom('row_counts').select('n').where('name', '=', table).executeTakeFirst();
    const counted = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    if (Number(kept?.n) !== Number(counted.rows[0]?.n)) {
      problems.push(`kept count ${table}: ${kept?.n}, counted ${counted.rows[0]?.n}`);
    }
  }
  return problems;
}

async function exchangeCounts(db: Db, recordNos: string[]) {
  const counts = new Map<string, number>();
  for (const part of chunks(recordNos)) {
    const rows = await db.selectFrom('exchange_records').select('record_no').where('record_no', 'in', part).execute();
    for (const r of rows) counts.set(r.record_no, (counts.get(r.record_no) ?? 0) + 1);
  }
  return counts;
}
