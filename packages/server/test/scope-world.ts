/**
 * Two apps' records for the data-scope tests (docs/permissions.md, "Data scope by app"): 滚动截屏
 * (`tailor`) and 名言 (`quote`), one record of each app-scoped kind in each, made through the
 * console's own calls where an operator makes them and written straight to the tables where an
 * app's call would (orders, feedback, claims, receipts, notifications, reports, sessions).
 */
import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import { permissionList } from '@appdesk/contract/permissions';
import { expect } from 'vitest';
import { createSession } from '../src/core/sessions';
import type { TestServer } from './harness';
import { addOperator } from './operators';

export const APPS = ['tailor', 'quote'] as const;
export type AppCode = (typeof APPS)[number];
/** How the apps are named in exports (an export names an app, never its code). */
export const APP_NAMES: Record<AppCode, string> = { tailor: '滚动截屏', quote: '名言' };

export interface AppRecords {
  user: number;
  help: number;
  plan: number;
  iap: number;
  item: number;
  a11t: number;
  message: number;
  version: number;
  selfapp: number;
  order: number;
  feedback: number;
  thread: number;
  claim: number;
  exchange: number;
  iapRecord: number;
  session: number;
}

export interface ScopeWorld {
  server: TestServer;
  /** The first administrator: 超级管理员, every app. */
  admin: string;
  /** Every permission, in `quote` only: their token and account id. */
  quoteOperator: { token: string; id: number };
  records: Record<AppCode, AppRecords>;
}

const example = (path: ApiPath) => (endpoints[path] as EndpointDef).example as Record<string, unknown>;

export async function ok<T>(server: TestServer, path: string, body: unknown, token: string): Promise<T> {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message], `${path} ${answer.text.slice(0, 300)}`).toEqual([
    200,
    answer.body.message,
  ]);
  return answer.body.data as T;
}

/** Registers 名言, fills both apps and adds an operator of every permission limited to 名言. */
export async function scopeWorld(server: TestServer): Promise<ScopeWorld> {
  const admin = (await server.initAdmin()).token;
  await ok(
    server,
    '/api/apps/make',
    {
      code: 'quote',
      name: APP_NAMES.quote,
      androidPackage: 'com.appdesk.quote',
      channels: [{ channel: 'huawei' }],
    },
    admin,
  );
  const records = {} as Record<AppCode, AppRecords>;
  for (const app of APPS) records[app] = await fill(server, admin, app);
  const token = await addOperator(server, { permissions: permissionList.map((p) => p.key), apps: ['quote'] });
  const me = await ok<{ user: { id: number } }>(server, '/api/users/fetch/info', {}, token);
  return { server, admin, quoteOperator: { token, id: me.user.id }, records };
}

async function fill(server: TestServer, admin: string, app: AppCode): Promise<AppRecords> {
  const db = server.app.services.db;
  const call = <T>(path: ApiPath, body: Record<string, unknown>) => ok<T>(server, path, body, admin);
  const now = Date.now();
  const user = (await server.addUser()).id;
  await db.updateTable('users').set({ app, channel: 'huawei' }).where('id', '=', user).execute();
  const made = {
    help: (await call<{ article: { id: number } }>('/api/help/make', { ...example('/api/help/make'), app })).article.id,
    plan: (await call<{ plan: { id: number } }>('/api/plan/make', { ...example('/api/plan/make'), app })).plan.id,
    iap: (await call<{ product: { id: number } }>('/api/iap/make', { ...example('/api/iap/make'), app })).product.id,
    item: (
      await call<{ item: { id: number } }>('/api/exchange/item/make', {
        ...example('/api/exchange/item/make'),
        kind: 'physical',
        app,
      })
    ).item.id,
    a11t: (await call<{ entry: { id: number } }>('/api/a11t/make', { ...example('/api/a11t/make'), app })).entry.id,
    message: (
      await call<{ message: { id: number } }>('/api/message/make', {
        ...example('/api/message/make'),
        app,
        userId: null,
      })
    ).message.id,
    version: (
      await call<{ version: { id: number } }>('/api/version/make', {
        app,
        platform: 'android',
        channel: 'huawei',
        versionName: '2.0.0',
        versionCode: 200,
        minVersionCode: 1,
      })
    ).version.id,
    selfapp: (
      await call<{ selfapp: { id: number } }>('/api/selfapp/make', {
        ...example('/api/selfapp/make'),
        name: `推广 ${app}`,
        packageId: `com.example.promoted.${app}`,
        apps: [app],
      })
    ).selfapp.id,
  };
  await call('/api/vip/update', { id: user, app, days: 30, reason: '数据范围测试' });
  const id = async (query: { executeTakeFirstOrThrow(): Promise<{ id: number }> }) =>
    (await query.executeTakeFirstOrThrow()).id;
  const order = await id(
    db
      .insertInto('orders')
      .values({
        order_no: `SCOPE${app}${now}`,
        user_id: user,
        plan_id: made.plan,
        plan_name: '年度会员',
        app,
        channel: 'huawei',
        pay_method: 'alipay',
        amount: 9800,
        duration_days: 365,
        bonus_coins: 0,
        status: 'paid',
        transaction_id: `T${app}${now}`,
        created_at: now,
        expires_at: now + 1_800_000,
        paid_at: now,
        updated_at: now,
      })
      .returning('id'),
  );
  const device = { app_version: '2.0.0', device_model: 'Pixel', os_version: '14' };
  const feedback = await id(
    db
      .insertInto('feedback')
      .values({
        app,
        user_id: user,
        content: `${app} 的反馈`,
        contact: '',
        channel: 'huawei',
        device_id: `device-${app}`,
        status: 'pending',
        reply: null,
        replied_at: null,
        handled_by: null,
        handled_at: null,
        created_at: now,
        updated_at: now,
        ...device,
      })
      .returning('id'),
  );
  const thread = await id(
    db
      .insertInto('feedback_threads')
      .values({
        app,
        user_id: user,
        category: 'bug',
        status: 'open',
        subject: `${app} 的会话`,
        assignee_id: null,
        last_post_at: now,
        last_user_post_id: 1,
        user_read_post_id: 0,
        admin_read_post_id: 0,
        created_at: now,
        updated_at: now,
        ...device,
      })
      .returning('id'),
  );
  const claim = await id(
    db
      .insertInto('review_rewards')
      .values({
        user_id: user,
        app,
        store: 'huawei',
        screenshot: '',
        status: 'pending',
        coins: 0,
        reason: null,
        reviewer_id: null,
        created_at: now,
        updated_at: now,
        reviewed_at: null,
      })
      .returning('id'),
  );
  const exchange = await id(
    db
      .insertInto('exchange_records')
      .values({
        record_no: `E${app}${now}`,
        app,
        user_id: user,
        item_id: made.item,
        item_name: '视频会员月卡兑换码',
        kind: 'physical',
        value: 0,
        cost: 0,
        status: 'waiting',
        code: null,
        receiver_name: '张三',
        receiver_phone: '13900000000',
        address: '上海市',
        carrier: null,
        tracking_no: null,
        note: null,
        operator_id: null,
        created_at: now,
        updated_at: now,
        shipped_at: null,
        cancelled_at: null,
      })
      .returning('id'),
  );
  const iapRecord = await id(
    db
      .insertInto('iap_records')
      .values({
        user_id: user,
        app,
        platform: 'ios',
        product_id: 'com.example.tailor.vip.month',
        transaction_id: `scope-${app}-${now}`,
        claimed_transaction_id: null,
        original_transaction_id: null,
        app_account_token: null,
        environment: 'Sandbox',
        status: 'granted',
        reason: null,
        vip_days: 31,
        coins: 0,
        purchased_at: now,
        expires_at: null,
        refunded_at: null,
        payload: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id'),
  );
  await db
    .insertInto('payment_notifications')
    .values({
      method: 'alipay',
      app,
      order_no: `SCOPE${app}${now}`,
      transaction_id: null,
      amount: 9800,
      status: 'applied',
      reason: null,
      payload: null,
      created_at: now,
    })
    .execute();
  await db
    .insertInto('selfapp_records')
    .values({
      selfapp_id: made.selfapp,
      action: 'show',
      app,
      platform: 'android',
      channel: 'huawei',
      device_id: `device-${app}`,
      user_id: null,
      coins: 0,
      created_at: now,
    })
    .execute();
  await createSession(db, user, { ip: null, userAgent: null, app });
  const session = await id(db.selectFrom('sessions').select('id').where('user_id', '=', user).where('app', '=', app));
  return { user, ...made, order, feedback, thread, claim, exchange, iapRecord, session };
}
