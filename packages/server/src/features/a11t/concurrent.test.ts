/**
 * Operators saving one remote-config key at once (issue 26): each gets a clear answer, never a 500
 * (PostgreSQL used to answer a duplicate revision number with one). A save that says which
 * revision it edited (`baseRevision`) answers 409 已被他人修改，请刷新后重试 when another saved first;
 * one that does not is applied on top of the other, as the next revision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(() => server.close());

type Entry = { id: number; key: string; value: string; revision: number };

const codes = (answers: Answer[]) => answers.map((a) => a.body.code).sort((a, b) => a - b);
const make = async (key: string) => {
  const answer = await server.call('/api/a11t/make', { app: 'tailor', key, value: 'v0' }, token);
  expect(answer.body.code).toBe(200);
  return (answer.body.data as { entry: Entry }).entry;
};
const revisions = async (id: number) => {
  const answer = await server.call('/api/a11t/fetch/revisions', { id }, token);
  return (answer.body.data as { list: { revision: number; value: string }[] }).list
    .map((r) => r.revision)
    .sort((a, b) => a - b);
};
const atOnce = (n: number, body: (i: number) => unknown, path = '/api/a11t/update') =>
  Promise.all(Array.from({ length: n }, (_, i) => server.call(path, body(i), token)));

describe('concurrent remote-config saves', () => {
  it('ten saves of one key from the same revision: one is saved, the others answer 409', async () => {
    const entry = await make('concurrent.based');
    const answers = await atOnce(10, (i) => ({ id: entry.id, value: `v${i + 1}`, baseRevision: entry.revision }));
    expect(codes(answers)).toEqual([200, ...Array(9).fill(409)]);
    for (const a of answers.filter((a) => a.body.code === 409))
      expect(a.body.message).toBe('已被他人修改，请刷新后重试');
    const saved = answers.find((a) => a.body.code === 200)?.body.data as { entry: Entry };
    expect(saved.entry.revision).toBe(2);
    expect(await revisions(entry.id)).toEqual([1, 2]);
  });

  it('ten saves that name no revision are all applied, one after the other', async () => {
    const entry = await make('concurrent.plain');
    const answers = await atOnce(10, (i) => ({ id: entry.id, value: `v${i + 1}` }));
    expect(codes(answers)).toEqual(Array(10).fill(200));
    expect(await revisions(entry.id)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    // Rollbacks at once too: each is its own next revision.
    const rolled = await atOnce(5, () => ({ id: entry.id, revision: 1 }), '/api/a11t/rollback');
    expect(codes(rolled)).toEqual(Array(5).fill(200));
    expect(await revisions(entry.id)).toHaveLength(16);
  });

  it('one key made or removed twice at once: one succeeds, the other is told why', async () => {
    const made = await atOnce(5, () => ({ app: 'tailor', key: 'concurrent.twice', value: 'x' }), '/api/a11t/make');
    expect(codes(made)).toEqual([200, 409, 409, 409, 409]);
    const first = made.find((a) => a.body.code === 200) as Answer;
    const id = (first.body.data as { entry: Entry }).entry.id;
    const removed = await atOnce(5, () => ({ id }), '/api/a11t/remove');
    expect(codes(removed)).toEqual([200, 404, 404, 404, 404]);
  });
});
