// Per-request CPU of the built server for a fixed number of calls (issue 13: the cost of metrics).
// `node bench/ops-cost.mjs [requests] [port]`: starts packages/server/dist/main.js on a fresh
// SQLite folder, warms up, then sends exactly `requests` calls of each scenario at concurrency 10
// and reads the server's CPU time from /proc before and after.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const amount = Number(process.argv[2] ?? 20000);
const port = Number(process.argv[3] ?? 8993);
const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-ops-cost-'));
const root = path.resolve(import.meta.dirname, '..');
const server = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});
const ticks = Number(process.env.CLK_TCK ?? 100);
const cpuMs = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticks) * 1000;
};
const url = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  const up = await fetch(`${url}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  await new Promise((r) => setTimeout(r, 200));
}
const scenarios = [
  { name: 'POST /api/allocation/fetch', path: '/api/allocation/fetch', method: 'POST', body: '{}' },
  { name: 'GET /healthz', path: '/healthz', method: 'GET' },
];
const run = (s, n) =>
  autocannon({
    url: url + s.path,
    method: s.method,
    body: s.body,
    headers: { 'content-type': 'application/json' },
    connections: 10,
    amount: n,
  });
console.log(`| scenario | requests | CPU µs/request | req/s |\n| --- | ---: | ---: | ---: |`);
for (const s of scenarios) {
  await run(s, 3000);
  const before = cpuMs();
  const result = await run(s, amount);
  const used = cpuMs() - before;
  console.log(
    `| ${s.name} | ${amount} | ${Math.round((used * 1000) / amount)} | ${Math.round(result.requests.average)} |`,
  );
}
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
