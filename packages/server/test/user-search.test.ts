import { afterAll, beforeAll, expect, it } from 'vitest';
import { digest, startServer, type TestServer } from './harness';

/**
 * Searching users by three digits or more (issue 14): one range of the digit-suffix index finds
 * them in phones and in the digits of nicknames, newest first, in every status tab, with totals
 * that count each user once.
 */
let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const data = <T>(answer: { body: { data?: unknown } }) => answer.body.data as T;

async function register(phone: string) {
  const answer = await server.call('/api/users/register', { phone, password: await digest('App12345'), app: 'tailor' });
  expect(answer.body.code).toBe(200);
  const { token, user } = data<{ token: string; user: { id: number } }>(answer);
  return { token, id: user.id, phone };
}

it('finds digits of phones and nicknames at every length and position, in every status tab', async () => {
  const phone = `1865${String(Date.now()).slice(-7)}`;
  const user = await register(phone);
  const digits = await register(`1868${String(Date.now()).slice(-7)}`);
  await server.call('/api/users/update/info', { nickname: `玩家${phone.slice(4, 10)}` }, digits.token);
  for (const length of [3, 4, 7, 11]) {
    for (const start of [0, 11 - length]) {
      const search = phone.slice(start, start + length);
      const all = data<{ list: { id: number }[]; total: number; totalExact: boolean }>(
        await server.call('/api/users/fetch/page', { search, size: 100 }, admin),
      );
      expect(
        all.list.map((u) => u.id),
        search,
      ).toContain(user.id);
      if (all.totalExact) expect(all.total, search).toBe(new Set(all.list.map((u) => u.id)).size);
    }
  }
  const inNickname = data<{ list: { id: number }[] }>(
    await server.call('/api/users/fetch/page', { search: phone.slice(5, 9), size: 100 }, admin),
  );
  expect(inNickname.list.map((u) => u.id)).toEqual(expect.arrayContaining([user.id, digits.id]));
  // In a status tab too, with its total (the tab's own rows, read from the matches).
  const inTab = async (status: 'normal' | 'blocked' | 'admin') =>
    data<{ list: { id: number }[]; total: number }>(
      await server.call('/api/users/fetch/page', { search: phone.slice(2, 9), status, size: 100 }, admin),
    );
  expect((await inTab('normal')).list.map((u) => u.id)).toContain(user.id);
  expect((await inTab('normal')).total).toBe((await inTab('normal')).list.length);
  expect((await inTab('blocked')).list.map((u) => u.id)).not.toContain(user.id);
  expect((await inTab('admin')).list.map((u) => u.id)).not.toContain(user.id);
  expect((await server.call('/api/users/block', { id: digits.id, reason: '测试' }, admin)).body.code).toBe(200);
  const blockedDigits = data<{ list: { id: number }[]; total: number }>(
    await server.call('/api/users/fetch/page', { search: phone.slice(4, 10), status: 'blocked', size: 100 }, admin),
  );
  expect(blockedDigits.list.map((u) => u.id)).toEqual([digits.id]);
  expect(blockedDigits.total).toBe(1);
  for (const sort of ['coins', 'lastActiveAt'] as const) {
    const sorted = data<{ list: { id: number }[] }>(
      await server.call('/api/users/fetch/page', { search: phone.slice(4, 10), status: 'normal', sort }, admin),
    );
    expect(
      sorted.list.map((u) => u.id),
      sort,
    ).toContain(user.id);
    expect(
      sorted.list.map((u) => u.id),
      sort,
    ).not.toContain(digits.id);
  }
  expect((await server.call('/api/users/unblock', { id: digits.id, reason: '测试' }, admin)).body.code).toBe(200);
  // The total rides in the page's statement; a page past the matches still tells it.
  const paged = async (page: number) =>
    data<{ list: { id: number }[]; total: number; totalExact: boolean }>(
      await server.call('/api/users/fetch/page', { search: phone.slice(5, 9), page, size: 1 }, admin),
    );
  const [first, past] = [await paged(0), await paged(50)];
  expect(first).toMatchObject({ total: inNickname.list.length, totalExact: true });
  expect(first.list).toHaveLength(1);
  expect(past).toMatchObject({ list: [], total: inNickname.list.length, totalExact: true });
  const newestFirst = inNickname.list.map((u) => u.id);
  expect(newestFirst).toEqual([...newestFirst].sort((a, b) => b - a));
});

it('pages through five digits or more in either order, with the total beside every page', async () => {
  const shared = String(100_000 + Math.floor(Math.random() * 900_000));
  const ids: number[] = [];
  for (const tail of ['100', '200', '300']) ids.push((await register(`13${shared}${tail}`)).id);
  const page = async (page: number, order?: 'ascend') =>
    data<{ list: { id: number }[]; total: number; totalExact: boolean }>(
      await server.call('/api/users/fetch/page', { search: shared, page, size: 1, order }, admin),
    );
  const newestFirst = [...ids].reverse();
  for (const [n, id] of newestFirst.entries()) {
    expect(await page(n)).toMatchObject({ list: [{ id }], total: 3, totalExact: true });
  }
  expect(await page(3)).toMatchObject({ list: [], total: 3, totalExact: true });
  expect(await page(0, 'ascend')).toMatchObject({ list: [{ id: ids[0] }], total: 3, totalExact: true });
  expect(await page(2, 'ascend')).toMatchObject({ list: [{ id: ids[2] }], total: 3, totalExact: true });
  // A page of no match at all still answers its total, from no row.
  const none = data<{ list: unknown[]; total: number; totalExact: boolean }>(
    await server.call('/api/users/fetch/page', { search: `${shared}7`, size: 20 }, admin),
  );
  expect(none).toMatchObject({ list: [], total: 0, totalExact: true });
});

it('answers a search in the list order when accounts were imported with earlier sign-up times', async () => {
  // Runs last: from here on this database's ids are no longer in sign-up order.
  const shared = String(100_000 + Math.floor(Math.random() * 900_000));
  const ids: number[] = [];
  for (const tail of ['410', '420', '430']) ids.push((await register(`15${shared}${tail}`)).id);
  const nick = `导入${shared.slice(0, 3)}`;
  for (const id of ids)
    await server.app.services.db.updateTable('users').set({ nickname: nick }).where('id', '=', id).execute();
  // The newest id signed up first (an imported account keeps its sign-up time).
  await server.app.services.db
    .updateTable('users')
    .set({ created_at: Date.now() - 86_400_000 * 400 })
    .where('id', '=', ids[2])
    .execute();
  const listed = async (filter: Record<string, unknown>) =>
    data<{ list: { id: number }[] }>(await server.call('/api/users/fetch/page', { size: 100, ...filter }, admin))
      .list.map((u) => u.id)
      .filter((id) => ids.includes(id));
  for (const order of ['descend', 'ascend'] as const) {
    const list = await listed({ order, from: new Date(Date.now() - 86_400_000 * 500).toISOString() });
    expect(list).toEqual(order === 'descend' ? [ids[1], ids[0], ids[2]] : [ids[2], ids[0], ids[1]]);
    for (const search of [shared, shared.slice(0, 3), nick, nick.slice(0, 2)]) {
      expect(await listed({ search, order }), `${search} ${order}`).toEqual(list);
      expect(await listed({ search, order, status: 'normal' }), `${search} ${order} 正常`).toEqual(list);
    }
  }
});
