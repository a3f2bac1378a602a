// Two instances behind nginx next to one, on PostgreSQL (+ S3 storage): the users list, the phone
// search and sign-in, each measured through the same private nginx with both instances in its
// upstream and then with the second marked `down` (so the proxy hop is in both figures and only the
// number of instances differs). Users are inserted straight into the cluster's database.
//   npm run build && /work/tools/bench-quiet node --import tsx bench/instances.ts [--port 8910]
//     [--users 100000] [--duration 10] [--out bench/results/instances.md]
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { hashPassword } from '../packages/server/src/core/passwords';
import { startCluster } from '../scripts/cluster';
import { isCode200 } from './lib/api';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] as string) : fallback;
};
const port = Number(arg('--port', '8910'));
const users = Number(arg('--users', '100000'));
const duration = Number(arg('--duration', '10'));
const out = arg('--out', path.resolve(import.meta.dirname, 'results/instances.md'));
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const password = 'Bench-user-1';
const phoneOf = (n: number) => `137${String(n).padStart(8, '0')}`;

const cluster = await startCluster({ port, quiet: true, env: { REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000' } });
try {
  const call = async (p: string, body: unknown, token = '') => {
    const answer = await fetch(cluster.url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify(body),
    });
    return (await answer.json()) as { code: number; data: unknown };
  };
  await call('/api/allocation/init', {
    phone: '13800000000',
    password: sha('Admin12345'),
    title: '两个实例',
    slogen: '一',
  });
  const admin = (
    (await call('/api/users/login', { phone: '13800000000', password: sha('Admin12345') })).data as {
      token: string;
    }
  ).token;

  // Users, all with one password (one hash), in one statement.
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  const hash = await hashPassword(sha(password));
  const now = Date.now();
  await db.query(
    `insert into users (phone, password_hash, nickname, is_admin, status, coins, email_verified, created_at, updated_at)
     select '137' || lpad(n::text, 8, '0'), $1, '用户' || n, 0, 'normal', 0, 0, $2::bigint - n * 1000, $2::bigint - n * 1000
     from generate_series(1, $3::int) n`,
    [hash, now, users],
  );
  await db.query('analyze users');
  await db.end();

  const scenarios = [
    {
      name: 'users list (first page + total)',
      path: '/api/users/fetch/page',
      token: admin,
      body: () => ({ page: 0, size: 20 }),
    },
    {
      name: 'phone search (4–7 digits)',
      path: '/api/users/fetch/page',
      token: admin,
      body: (n: number) => {
        const phone = phoneOf(1 + ((n * 7919) % users));
        const len = 4 + (n % 4);
        const from = 3 + (n % (11 - len - 2));
        return { page: 0, size: 20, search: phone.slice(from, from + len) };
      },
    },
    {
      name: 'sign-in (argon2id)',
      path: '/api/users/login',
      token: '',
      // A different account each time: an account keeps at most 10 sessions.
      body: (n: number) => ({ phone: phoneOf(1 + (n % users)), password: sha(password) }),
    },
  ];
  const measure = async (s: (typeof scenarios)[number], seconds: number) => {
    let n = Math.floor(Math.random() * users);
    const result = await autocannon({
      url: cluster.url,
      connections: 16,
      duration: seconds,
      timeout: 30,
      verifyBody: isCode200,
      requests: [
        {
          method: 'POST',
          path: s.path,
          headers: { 'content-type': 'application/json', token: s.token },
          setupRequest: (req) => {
            n += 1;
            return { ...req, body: JSON.stringify(s.body(n)) };
          },
        },
      ],
    });
    const bad = result.non2xx + result.errors + result.timeouts + (result.mismatches ?? 0);
    return { rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99, bad };
  };
  const rows: string[] = [];
  const figures: Record<string, { one: number; two: number }> = {};
  for (const s of scenarios) {
    await cluster.setDown(1, false);
    await measure(s, 3); // warm-up on both
    const two = await measure(s, duration);
    await cluster.setDown(1, true);
    await measure(s, 2);
    const one = await measure(s, duration);
    await cluster.setDown(1, false);
    figures[s.name] = { one: one.rps, two: two.rps };
    rows.push(
      `| ${s.name} | ${one.rps.toFixed(0)} | ${one.p50} / ${one.p99} | ${two.rps.toFixed(0)} | ${two.p50} / ${two.p99} | **${(two.rps / one.rps).toFixed(2)}×** | ${one.bad + two.bad} |`,
    );
    console.log(rows.at(-1));
  }
  const text = `# Two instances behind nginx next to one (bench/instances.ts)

${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? ''}), PostgreSQL with ${users.toLocaleString('en')} users, S3 storage (radosgw), 16 connections, ${duration} s per figure after a warm-up. Both columns go through the same private nginx (deploy/nginx); "one" has the second instance marked \`down\`. Everything (nginx, instances, PostgreSQL, radosgw, the load generator) shares this machine's cores, so the ratio shows what a second instance adds when the cores are already shared, not what a second machine would.

| call | one instance req/s | p50 / p99 ms | two instances req/s | p50 / p99 ms | two ÷ one | failed |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
  writeFileSync(out, text);
  console.log(text);
} finally {
  await cluster.stop();
}
