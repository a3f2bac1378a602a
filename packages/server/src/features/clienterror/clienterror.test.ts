import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, unlimitedQuotas } from '../../../test/harness';
import { firstFrame, MAX_GROUPS, SAMPLES_PER_GROUP } from './queries';

let server: TestServer;
let token: string;
const PER_ADDRESS = 12;
beforeAll(async () => {
  server = await startServer({ quotas: { ...unlimitedQuotas, clientErrorsPerAddressPerMinute: PER_ADDRESS } });
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const admin = async <T>(path: string, body: unknown) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Group = { id: number; message: string; release: string; frame: string; count: number; status: string };
type Sample = { stack: string; path: string; device: string; repeats: number };

const stack = (file: string) =>
  `TypeError: x is undefined\n    at render (https://appdesk.example.com/assets/${file}.js:3:141)\n    at https://appdesk.example.com/assets/index.js:1:99`;
const report = (extra: Record<string, unknown> = {}) => ({
  kind: 'error',
  message: 'TypeError: x is undefined',
  stack: stack('users-AbC123'),
  path: '/admin/admin/users',
  release: 'r1',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ...extra,
});
/** Rows of the groups table straight from the database. */
const groupRows = () => server.app.services.db.selectFrom('client_error_groups').selectAll().execute();
const clearCounters = () =>
  server.app.services.db.deleteFrom('login_attempts').where('key', 'like', 'clienterror:%').execute();

describe('browser error reports', () => {
  it('group by message, release and first frame, count repeats, and keep only the latest samples', async () => {
    await clearCounters();
    for (let i = 0; i < SAMPLES_PER_GROUP + 2; i += 1) {
      expect((await server.call('/api/clienterror/report', report({ repeats: i === 0 ? 3 : 1 }))).body.code).toBe(200);
    }
    // Another release and another first frame are groups of their own.
    expect((await server.call('/api/clienterror/report', report({ release: 'r2' }))).body.code).toBe(200);
    expect((await server.call('/api/clienterror/report', report({ stack: stack('plan-Zz9') }))).body.code).toBe(200);

    const page = await admin<{ list: Group[]; total: number }>('/api/clienterror/fetch/page', { search: 'x is' });
    expect(page.total).toBe(3);
    const first = page.list.find((g) => g.release === 'r1' && g.frame.includes('users-AbC123'));
    expect(first).toMatchObject({
      count: SAMPLES_PER_GROUP + 4,
      status: 'open',
      frame: '/assets/users-AbC123.js:3:141',
    });
    const detail = await admin<{ samples: Sample[] }>('/api/clienterror/fetch/detail', { id: first?.id });
    expect(detail.samples).toHaveLength(SAMPLES_PER_GROUP);
    expect(detail.samples[0].device).toBe('Chrome 131 · Linux');
    const kept = await server.app.services.db.selectFrom('client_error_samples').select('id').execute();
    expect(kept.length).toBe(SAMPLES_PER_GROUP + 2);
  });

  it('keep no query string, token, email or phone number, from the client or not', async () => {
    await clearCounters();
    const answer = await server.call(
      '/api/clienterror/report',
      report({
        message: 'Failed for 13800138000 token=abc.def alice@example.com',
        stack: `Error\n    at f (https://appdesk.example.com/assets/a.js?token=s3cr3t:1:2)\n    at g (/admin/admin/users?phone=13912345678&search=x:4:5)`,
        path: '/admin/admin/users?search=13800138000#top',
        release: 'r-scrub',
      }),
    );
    expect(answer.body.code).toBe(200);
    const [group] = (await groupRows()).filter((g) => g.release === 'r-scrub');
    const [sample] = await server.app.services.db
      .selectFrom('client_error_samples')
      .selectAll()
      .where('group_id', '=', group.id)
      .execute();
    const kept = JSON.stringify([group, sample]);
    for (const secret of ['13800138000', '13912345678', 's3cr3t', 'abc.def', 'alice@', 'search=', 'phone=', '#top']) {
      expect(kept).not.toContain(secret);
    }
    expect(group.last_path).toBe('/admin/admin/users');
    expect(group.message).toMatch(/^Failed for ‹已隐去› token=‹已隐去› ‹已隐去›$/);
    // Line and column survive the scrub (they are what makes a frame useful).
    expect(group.frame).toBe('/assets/a.js:1:2');
  });

  it('refuse a client address past its minute without a write, and answer in Chinese', async () => {
    await clearCounters();
    const before = (await groupRows()).length;
    const codes: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 5; i += 1) {
      codes.push((await server.call('/api/clienterror/report', report({ message: `flood ${i}` }))).body.code);
    }
    expect(codes.filter((c) => c === 200)).toHaveLength(PER_ADDRESS);
    const refused = await server.call('/api/clienterror/report', report({ message: 'one more' }));
    expect(refused.body.code).toBe(429);
    expect(refused.body.message).toMatch(/^错误上报过于频繁，请 \d+ 秒后再试$/);
    expect((await groupRows()).length).toBe(before + PER_ADDRESS);
  });

  it('a handled group opens again when it happens again; marking it is in the operation log', async () => {
    await clearCounters();
    expect((await server.call('/api/clienterror/report', report({ release: 'r-resolve' }))).body.code).toBe(200);
    const [row] = (await groupRows()).filter((g) => g.release === 'r-resolve');
    const { group } = await admin<{ group: Group }>('/api/clienterror/resolve', { id: row.id });
    expect(group.status).toBe('resolved');
    expect((await server.call('/api/clienterror/resolve', { id: row.id }, token)).body.code).toBe(409);
    const open = await admin<{ list: Group[] }>('/api/clienterror/fetch/page', {
      status: 'open',
      release: 'r-resolve',
    });
    expect(open.list).toHaveLength(0);
    const log = await admin<{ list: { action: string }[] }>('/api/audit/fetch/page', { size: 1 });
    expect(log.list[0].action).toBe('clienterror.resolve');

    expect((await server.call('/api/clienterror/report', report({ release: 'r-resolve' }))).body.code).toBe(200);
    const again = await admin<{ list: Group[] }>('/api/clienterror/fetch/page', {
      status: 'open',
      release: 'r-resolve',
    });
    expect(again.list.map((g) => [g.status, g.count])).toEqual([['open', 2]]);
  });

  it(`keeps at most ${MAX_GROUPS} groups: the longest unseen make room`, async () => {
    const db = server.app.services.db;
    const now = Date.now() - 60_000;
    const existing = (await groupRows()).length;
    const rows = Array.from({ length: MAX_GROUPS - existing }, (_, i) => ({
      digest: `filler-${i}`,
      message: `filler ${i}`,
      release: 'old',
      frame: '',
      kind: 'error',
      count: 1,
      first_seen_at: now - 1_000_000 + i,
      last_seen_at: now - 1_000_000 + i,
      last_path: '/',
      resolved_at: null,
      resolved_by: null,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('client_error_groups')
        .values(rows.slice(i, i + 100))
        .execute();
    await clearCounters();
    expect((await server.call('/api/clienterror/report', report({ release: 'newest' }))).body.code).toBe(200);
    const after = await groupRows();
    expect(after.length).toBe(MAX_GROUPS);
    expect(after.some((g) => g.digest === 'filler-0')).toBe(false);
    expect(after.some((g) => g.release === 'newest')).toBe(true);
  });
});

describe('firstFrame', () => {
  it('reads Chrome and Firefox stacks, without the origin', () => {
    expect(firstFrame('Error: a\n    at f (https://h.example/assets/x-1.js:10:20)')).toBe('/assets/x-1.js:10:20');
    expect(firstFrame('f@https://h.example/assets/y.js:3:4\n')).toBe('/assets/y.js:3:4');
    expect(firstFrame('Error: no frames')).toBe('');
  });
});
