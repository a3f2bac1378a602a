import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  await ok('/api/apps/make', { code: 'quote', name: '名言', androidPackage: 'com.appdesk.quote' });
});
afterAll(async () => {
  await server.close();
});

const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Selfapp = { id: number; apps: string[] };
const make = (name: string, packageId: string, apps: string[]) =>
  server.call('/api/selfapp/make', { name, packageId, rewardCoins: 0, enabled: true, apps }, admin);
const shown = async (app: string) =>
  (await ok<{ list: { id: number }[] }>('/api/selfapp/fetch/list', { app, platform: 'android' }, '')).list.map(
    (s) => s.id,
  );

describe('promotion per app', () => {
  it('shows a promoted app in the apps chosen, never in itself, and refuses an app nobody registered', async () => {
    const quote = (await make('名言', 'com.appdesk.quote', ['tailor', 'quote'])).body.data as { selfapp: Selfapp };
    const notes = (await make('极简记账', 'com.example.notes', ['quote'])).body.data as { selfapp: Selfapp };
    expect(quote.selfapp.apps).toEqual(['tailor', 'quote']);
    // 名言 promoted inside 名言 is the app itself (its package, from 应用管理): not shown there.
    expect(await shown('quote')).toEqual([notes.selfapp.id]);
    expect(await shown('tailor')).toEqual([quote.selfapp.id]);
    const unknown = await make('未知', 'com.example.x', ['tailor', 'nosuch']);
    expect([unknown.body.code, unknown.body.message]).toEqual([400, '未知的应用：nosuch']);
    const filtered = await ok<{ list: Selfapp[] }>('/api/selfapp/fetch/page', { page: 0, size: 20, app: 'quote' });
    expect(filtered.list.map((s) => s.id).sort()).toEqual([quote.selfapp.id, notes.selfapp.id].sort());
  });
});
