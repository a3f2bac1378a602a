import path from 'node:path';
import { call, callOk } from './api';
import { admin, sha256hex } from './fixtures';
import { type LoadContext, runScenario, type Scenario, type ScenarioResult } from './load';
import { freePort, start, waitUntil } from './processes';
import { gitRevision, machine } from './report';

/** The bare Fastify baseline, measured in the same run (bench/README.md "Reading the figures"). */
export async function startBaseline(root: string) {
  const port = await freePort();
  const process_ = start('baseline', process.execPath, [path.join(root, 'bench/baseline-server.mjs')], {
    env: { ...process.env, PORT: String(port) },
    cwd: path.join(root, 'bench'),
  });
  const url = `http://127.0.0.1:${port}`;
  const ready = () => waitUntil(process_, async () => (await call(url, '/api/baseline')).code === 200);
  return { process: process_, port, url, ready };
}

/** Waits for the server, sets the site up with the bench admin unless it is, and answers the admin's token. */
export async function setUpSite(server: Parameters<typeof waitUntil>[0], base: string): Promise<string> {
  await waitUntil(server, async () => {
    await callOk(base, '/api/allocation/fetch');
    return true;
  });
  const password = sha256hex(admin.password);
  const site = await callOk(base, '/api/allocation/fetch');
  if (!(site as { allocation?: { isInit?: boolean } }).allocation?.isInit) {
    await callOk(base, '/api/allocation/init', {
      phone: admin.phone,
      password,
      title: admin.title,
      slogen: admin.slogen,
    });
  }
  return (await callOk(base, '/api/users/login', { phone: admin.phone, password })).token;
}

/** Runs the scenarios in order; each one after the first is compared with the first (the baseline). */
export async function runAgainstBaseline(scenarios: Scenario[], ctx: LoadContext): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    const r = await runScenario(s, ctx);
    r.ratioToBaseline = results[0] && r !== results[0] ? r.rps / results[0].rps : null;
    results.push(r);
    console.log(
      `${r.name}: ${Math.round(r.rps)} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, bad ${r.bad.total}`,
    );
  }
  return results;
}

/**
 * A feature benchmark's report (bench/results/<feature>.md): title, when, where, which revision,
 * how it was run (`run`, plus any `notes`), and the table of its scenarios.
 */
export function featureReport(options: {
  title: string;
  root: string;
  run: string;
  notes?: string[];
  results: ScenarioResult[];
}): string {
  const m = machine();
  const fixed = (n: number | null) => (n === null || Number.isNaN(n) ? '—' : n.toFixed(2));
  const header = ['scenario', 'rate', 'p50 ms', 'p95 ms', 'p99 ms', 'bad', '× baseline', 'CPU ms/req', 'RSS MB'];
  const rows = options.results.map((r) => [
    r.name,
    `${Math.round(r.rps).toLocaleString('en-US')} req/s`,
    fixed(r.latencyMs.p50),
    fixed(r.latencyMs.p95),
    fixed(r.latencyMs.p99),
    String(r.bad.total),
    r.ratioToBaseline === null ? '—' : r.ratioToBaseline.toFixed(3),
    fixed(r.cpuMsPerRequest.server),
    r.rssMb === null ? '—' : String(Math.round(r.rssMb)),
  ]);
  const table = [header, header.map((_, i) => (i === 0 ? '---' : '---:')), ...rows]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
  return [
    `# ${options.title}`,
    '',
    `- date: ${new Date().toISOString()}`,
    `- machine: ${m.cpus} CPU (${m.cpuModel}), Node ${m.node}`,
    `- revision: ${gitRevision(options.root) ?? 'unknown'}`,
    `- run: ${options.run}`,
    ...(options.notes ?? []),
    '',
    table,
    '',
  ].join('\n');
}
