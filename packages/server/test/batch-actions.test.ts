/**
 * The batch actions of the lists that operators work through (issue 28), beyond 兑换记录 and 好评奖励
 * (their own feature tests): each record is acted on by its single action, on its own, and the
 * answer says which failed and why.
 */
import { type ApiInput, type ApiPath, endpoints } from '@appdesk/contract';
import { createApiClient } from '@appdesk/contract/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let api: ReturnType<typeof createApiClient>;
let user: { id: number; token: string };
beforeAll(async () => {
  server = await startServer();
  const { token } = await server.initAdmin();
  api = createApiClient({ baseUrl: server.url, token: () => token });
  const added = await server.addUser();
  user = { id: added.id, token: await server.login(added.phone, added.password) };
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const missing = 999_999;
const exampleOf = <P extends ApiPath>(p: P) => (endpoints[p] as { example?: unknown }).example as ApiInput<P>;
const actions = async (action: string) =>
  (await db().selectFrom('audit_log').select('target_id').where('action', '=', action).execute()).map((r) =>
    Number(r.target_id),
  );

describe('意见反馈', () => {
  it('marks handled and replies, each feedback on its own; the reply reaches each signed-in author', async () => {
    const make = (content: string) =>
      api.ok(
        '/api/feedback/make',
        { app: 'tailor', content, deviceId: `batch-${content}`, deviceModel: 'Mi 14', osVersion: 'Android 14' },
        { token: user.token },
      );
    const ids = [(await make('闪退一')).feedback.id, (await make('闪退二')).feedback.id];
    const replied = await api.ok('/api/feedback/reply/batch', { ids: [missing, ...ids], reply: '已在 2.3.2 修复。' });
    expect(replied.results.map((r) => [r.id, r.ok, r.code])).toEqual([
      [missing, false, 404],
      [ids[0], true, undefined],
      [ids[1], true, undefined],
    ]);
    const rows = await db().selectFrom('feedback').select(['status', 'reply']).where('id', 'in', ids).execute();
    expect(rows).toEqual(ids.map(() => ({ status: 'handled', reply: '已在 2.3.2 修复。' })));
    const inbox = await db().selectFrom('messages').select('content').where('user_id', '=', user.id).execute();
    expect(inbox.filter((m) => m.content.includes('已在 2.3.2 修复。'))).toHaveLength(2);
    expect((await actions('feedback.reply')).sort()).toEqual([...ids].sort());

    // Marking handled again changes nothing and succeeds, as the single action does.
    const handled = await api.ok('/api/feedback/handle/batch', { ids });
    expect(handled).toEqual({ results: ids.map((id) => ({ id, ok: true })), succeeded: 2, failed: 0 });
  });
});

describe('反馈工单', () => {
  it('replies with one canned text and closes, each thread on its own', async () => {
    const open = (content: string) =>
      api.ok(
        '/api/feedbackv2/make',
        { app: 'tailor', category: 'payment', content, images: [] },
        { token: user.token },
      );
    const ids = [(await open('扣款未到账')).thread.id, (await open('会员未开通')).thread.id];
    const replied = await api.ok('/api/feedbackv2/reply/batch', { ids, content: '您好，已为您处理，请重启 App。' });
    expect(replied).toEqual({ results: ids.map((id) => ({ id, ok: true })), succeeded: 2, failed: 0 });
    const threads = await db().selectFrom('feedback_threads').select('status').where('id', 'in', ids).execute();
    expect(threads.map((t) => t.status)).toEqual(['replied', 'replied']);

    const closed = await api.ok('/api/feedbackv2/close/batch', { ids: [ids[0], missing, ids[1]] });
    expect(closed.results.map((r) => [r.ok, r.code])).toEqual([
      [true, undefined],
      [false, 404],
      [true, undefined],
    ]);
    expect(closed.results[1].message).toBe('会话不存在');
    const after = await db().selectFrom('feedback_threads').select('status').where('id', 'in', ids).execute();
    expect(after.map((t) => t.status)).toEqual(['closed', 'closed']);
    expect((await actions('feedbackv2.close')).sort()).toEqual([...ids].sort());
  });
});

describe('publish and unpublish', () => {
  it('帮助文章: each article published or taken down by the single action', async () => {
    const make = (title: string) =>
      api.ok('/api/help/make', { ...exampleOf('/api/help/make'), title, published: false });
    const ids = [(await make('批量一')).article.id, (await make('批量二')).article.id];
    const published = await api.ok('/api/help/publish/batch', { ids: [...ids, missing] });
    expect([published.succeeded, published.failed, published.results[2].code]).toEqual([2, 1, 404]);
    const rows = () => db().selectFrom('help_articles').select('published').where('id', 'in', ids).execute();
    expect((await rows()).map((r) => Number(r.published))).toEqual([1, 1]);
    const down = await api.ok('/api/help/unpublish/batch', { ids });
    expect(down.succeeded).toBe(2);
    expect((await rows()).map((r) => Number(r.published))).toEqual([0, 0]);
  });
});

describe('版本', () => {
  it('pauses only published releases; publishes and pauses each on its own', async () => {
    const make = (versionCode: number) =>
      api.ok('/api/version/make', { ...exampleOf('/api/version/make'), versionCode, versionName: `3.${versionCode}` });
    const ids = [(await make(301)).version.id, (await make(302)).version.id];
    const early = await api.ok('/api/version/pause/batch', { ids });
    expect(early.results.map((r) => [r.code, r.message])).toEqual(ids.map(() => [409, '只有已发布的版本可以暂停']));
    expect((await api.ok('/api/version/publish/batch', { ids: [ids[0], missing] })).succeeded).toBe(1);
    const paused = await api.ok('/api/version/pause/batch', { ids });
    expect(paused.results.map((r) => r.ok)).toEqual([true, false]);
    const rows = await db()
      .selectFrom('versions')
      .select(['id', 'status'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['paused', 'draft']);
  });
});

describe('enable and disable', () => {
  it('套餐, 内购商品, 推广应用 and 兑换商品: each record switched by its single update', async () => {
    const plan = (await api.ok('/api/plan/make', exampleOf('/api/plan/make'))).plan.id;
    const off = await api.ok('/api/plan/update/onsale/batch', { ids: [plan, missing], onSale: false });
    expect(off.results.map((r) => [r.id, r.ok])).toEqual([
      [plan, true],
      [missing, false],
    ]);
    const sale = await db().selectFrom('plans').select('on_sale').where('id', '=', plan).executeTakeFirstOrThrow();
    expect(Number(sale.on_sale)).toBe(0);

    const product = (await api.ok('/api/iap/make', exampleOf('/api/iap/make'))).product.id;
    expect((await api.ok('/api/iap/update/enabled/batch', { ids: [product], enabled: false })).succeeded).toBe(1);
    const app = (await api.ok('/api/selfapp/make', exampleOf('/api/selfapp/make'))).selfapp.id;
    expect((await api.ok('/api/selfapp/update/enabled/batch', { ids: [app], enabled: false })).succeeded).toBe(1);
    const item = (
      await api.ok('/api/exchange/item/make', {
        name: '批量下架',
        kind: 'coins',
        value: 10,
        costCoins: 5,
        enabled: true,
      })
    ).item.id;
    expect((await api.ok('/api/exchange/item/update/enabled/batch', { ids: [item], enabled: false })).succeeded).toBe(
      1,
    );
    const flags = await Promise.all([
      db().selectFrom('iap_products').select('enabled').where('id', '=', product).executeTakeFirstOrThrow(),
      db().selectFrom('selfapps').select('enabled').where('id', '=', app).executeTakeFirstOrThrow(),
      db().selectFrom('exchange_items').select('enabled').where('id', '=', item).executeTakeFirstOrThrow(),
    ]);
    expect(flags.map((f) => Number(f.enabled))).toEqual([0, 0, 0]);
    expect(await actions('plan.update')).toEqual([plan]);
  });
});
