// Rolling restart under load: two instances behind nginx on PostgreSQL + S3 (scripts/cluster.ts),
// an open-loop load of RATE requests per second mixed across the users list, sign-in and upload
// calls, while each instance in turn gets SIGTERM and is started again. Counts failed requests
// (a network error, an HTTP status other than 200, or a code other than 200) and measures how soon
// a change made through one instance is seen through the other. --seconds sets the length of the
// load (the restarts start at a fifth and three fifths of it); the mix's fourth share is writes
// (a help article made: a transaction with its operation-log row).
//   node --import tsx bench/rolling.ts [--port 8946] [--rate 200] [--mix 75,10,15[,0]] [--seconds 20] [--out bench/results/rolling.md]
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startCluster } from '../scripts/cluster';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] as string) : fallback;
};
const port = Number(arg('--port', '8946'));
const rate = Number(arg('--rate', '200'));
const out = arg('--out', path.resolve(import.meta.dirname, 'results/rolling.md'));
// --mix L,S,U[,W]: percentages of list, sign-in, upload and write calls (default 75,10,15,0).
const [listShare, signInShare, uploadShare, writeShare = 0] = arg('--mix', '75,10,15').split(',').map(Number);
const seconds = Number(arg('--seconds', '0'));
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// A 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

type Kind = 'list' | 'sign-in' | 'upload' | 'write';
interface Outcome {
  kind: Kind;
  at: number;
  ms: number;
  ok: boolean;
  why?: string;
  upstream?: string;
}

const cluster = await startCluster({ port, quiet: process.env.ROLLING_VERBOSE !== '1' });
const outcomes: Outcome[] = [];
const events: { at: number; what: string }[] = [];
const visibility: number[] = [];
try {
  const call = async (p: string, body: unknown, token = '') => {
    const answer = await fetch(cluster.url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as { code: number; data: unknown } };
  };
  const phone = '13800000000';
  const password = sha('Admin12345');
  await call('/api/allocation/init', { phone, password, title: '滚动重启', slogen: '不丢请求' });
  const admin = ((await call('/api/users/login', { phone, password })).body.data as { token: string }).token;
  // Sign-ins as an app user of their own: an account keeps at most 10 sessions, so signing the
  // administrator in 20 times a second would end the session the list and upload calls use.
  const signer = { phone: '13900000001', password: sha('User12345') };
  await call('/api/users/register', { ...signer, app: 'tailor', channel: 'huawei' });

  const started = Date.now();
  const one = async (kind: Kind) => {
    const at = Date.now() - started;
    // A request not answered within 30 s counts as failed (and the run still ends).
    const signal = AbortSignal.timeout(30_000);
    let request: Promise<Response>;
    if (kind === 'list') {
      request = fetch(`${cluster.url}/api/users/fetch/page`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: admin },
        body: JSON.stringify({ page: 0, size: 20 }),
        signal,
      });
    } else if (kind === 'sign-in') {
      request = fetch(`${cluster.url}/api/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(signer),
        signal,
      });
    } else if (kind === 'write') {
      request = fetch(`${cluster.url}/api/help/make`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: admin },
        body: JSON.stringify({ title: `滚动重启 ${at}`, content: '重启期间写入' }),
        signal,
      });
    } else {
      const form = new FormData();
      form.append('file', new Blob([png]), 'dot.png');
      request = fetch(`${cluster.url}/api/finder/single`, {
        method: 'POST',
        headers: { token: admin },
        body: form,
        signal,
      });
    }
    try {
      const answer = await request;
      const text = await answer.text();
      const code = answer.status === 200 ? (JSON.parse(text) as { code: number }).code : undefined;
      const ok = answer.status === 200 && code === 200;
      outcomes.push({
        kind,
        at,
        ms: Date.now() - started - at,
        ok,
        why: ok ? undefined : `HTTP ${answer.status} code ${code ?? '-'} ${text.slice(0, 80)}`,
        upstream: answer.headers.get('x-upstream') ?? undefined,
      });
    } catch (error) {
      outcomes.push({ kind, at, ms: Date.now() - started - at, ok: false, why: (error as Error).message });
    }
  };

  // Open loop: a request every 1000/rate ms whatever the answers take, kinds in the --mix shares.
  let running = true;
  const inFlight = new Set<Promise<void>>();
  const load = (async () => {
    const interval = 1000 / rate;
    for (let n = 0; running; n++) {
      const due = started + n * interval;
      const wait = due - Date.now();
      // Always yield: a loop that fell behind (a loaded machine) must not spin without sending.
      await sleep(Math.max(0, wait));
      const slot = n % 100;
      const kind: Kind =
        slot < listShare
          ? 'list'
          : slot < listShare + signInShare
            ? 'sign-in'
            : slot < listShare + signInShare + uploadShare
              ? 'upload'
              : 'write';
      const p = one(kind).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  })();

  // Cross-instance visibility, throughout: a title changed straight through one instance, read
  // straight from the other until it shows (skipped while either is down).
  const probe = (async () => {
    while (running) {
      await sleep(700);
      const [a, b] = cluster.instances;
      const up = (i: typeof a) => i.process && i.process.exitCode === null && i.process.signalCode === null;
      if (!up(a) || !up(b)) continue;
      const [writer, reader] = Math.random() < 0.5 ? [a, b] : [b, a];
      const title = `滚动-${randomUUID().slice(0, 8)}`;
      try {
        const set = await fetch(`http://127.0.0.1:${writer.port}/api/allocation/update/title`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: admin },
          body: JSON.stringify({ title }),
        });
        if (((await set.json()) as { code: number }).code !== 200) continue;
        const from = Date.now();
        while (Date.now() - from < 5000) {
          const read = await fetch(`http://127.0.0.1:${reader.port}/api/allocation/fetch`, { method: 'POST' });
          const seen = ((await read.json()) as { data: { allocation: { title: string } } }).data.allocation.title;
          if (seen === title) {
            visibility.push(Date.now() - from);
            break;
          }
          await sleep(5);
        }
      } catch {
        // an instance went down between the check and the call
      }
    }
  })();

  const mark = (what: string) => events.push({ at: Date.now() - started, what });
  // Without --seconds: 5 s of load, then each restart followed by 5 s more. With it: the restarts
  // begin at a fifth and three fifths of the time, and the load runs for all of it.
  const untilSecond = (s: number) => sleep(started + s * 1000 - Date.now());
  await (seconds ? untilSecond(seconds / 5) : sleep(5000));
  for (const [n, instance] of cluster.instances.entries()) {
    if (seconds && n > 0) await untilSecond((seconds * (1 + 2 * n)) / 5);
    mark(`SIGTERM instance ${n + 1} (:${instance.port})`);
    const code = await instance.stop('SIGTERM');
    mark(`instance ${n + 1} exited (${code})`);
    await instance.start();
    mark(`instance ${n + 1} ready again`);
    if (!seconds) await sleep(5000);
  }
  if (seconds) await untilSecond(seconds);
  running = false;
  await load;
  await Promise.all(inFlight);
  await probe;
} finally {
  await cluster.stop();
}

// Report.
const q = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
};
const duration = Math.max(...outcomes.map((o) => o.at)) / 1000;
const rows = (['list', 'sign-in', 'upload', 'write'] as const).flatMap((kind) => {
  const of = outcomes.filter((o) => o.kind === kind);
  if (of.length === 0) return [];
  const ms = of.map((o) => o.ms);
  return `| ${kind} | ${of.length} | ${of.filter((o) => !o.ok).length} | ${q(ms, 50)} | ${q(ms, 99)} | ${Math.max(...ms)} |`;
});
const failed = outcomes.filter((o) => !o.ok);
const report = [
  '# Rolling restart under load (bench/rolling.ts)',
  '',
  `${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ${rate} requests/s offered (open loop; ${listShare} % list, ${signInShare} % sign-in, ${uploadShare} % upload${writeShare ? `, ${writeShare} % write (help/make)` : ''}) for ${duration.toFixed(1)} s through nginx to two instances on PostgreSQL + S3 (radosgw) on this 2-core machine; each instance in turn got SIGTERM (it answers new requests HTTP 503 unrun for SHUTDOWN_REFUSE_MS, 1 s, which nginx sends on to the other instance, then closes its listener and finishes what it has), exited and was started again; nginx's configuration was not touched.`,
  '',
  '| call | requests | failed | p50 ms | p99 ms | max ms |',
  '|---|---|---|---|---|---|',
  ...rows,
  `| **all** | ${outcomes.length} | **${failed.length}** | ${q(
    outcomes.map((o) => o.ms),
    50,
  )} | ${q(
    outcomes.map((o) => o.ms),
    99,
  )} | ${Math.max(...outcomes.map((o) => o.ms))} |`,
  '',
  'Timeline (s from the start of the load):',
  '',
  ...events.map((e) => `- ${(e.at / 1000).toFixed(1)} s: ${e.what}`),
  '',
  `Cross-instance visibility (a title changed through one instance, read from the other every 5 ms), ${visibility.length} samples: median ${q(visibility, 50)} ms, max ${Math.max(0, ...visibility)} ms.`,
  '',
  failed.length
    ? `Failures:\n\n${failed
        .slice(0, 20)
        .map((f) => `- ${(f.at / 1000).toFixed(2)} s ${f.kind}: ${f.why}`)
        .join('\n')}`
    : 'No request failed.',
  '',
].join('\n');
writeFileSync(out, report);
console.log(report);
process.exit(failed.length ? 1 : 0);
