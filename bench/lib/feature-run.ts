import { type LoadContext, runScenario, type Scenario, type ScenarioResult } from './load';
import { gitRevision, machine } from './report';

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
