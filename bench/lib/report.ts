import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScenarioResult } from './load';
import type { SeedReport } from './seed';
import type { WebResult } from './web';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
}

export function machine(): Machine {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (line) cpuModel = line[1].trim();
  } catch {
    // not Linux: keep what os.cpus() says
  }
  return {
    cpus: os.availableParallelism(),
    cpuModel,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
  };
}

export function gitRevision(cwd: string): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit}+changes` : commit;
  } catch {
    return null;
  }
}

export interface ApiSection {
  date: string;
  git: string | null;
  machine: Machine;
  settings: {
    users: number;
    coinRecords: number;
    messages: number;
    auditLog: number;
    durationSeconds: number;
    warmupSeconds: number;
    /** Rounds per scenario, SQLite and PostgreSQL alternating; each row is its median round by p95. */
    rounds?: number;
  };
  seed: SeedReport | null;
  /** How the server reached PostgreSQL (a Unix socket or TCP), or null when it was not measured. */
  postgresConnection?: string | null;
  scenarios: ScenarioResult[];
  /** Scenarios that could not run (their sample call did not answer code 200, or the load failed). */
  failed: { name: string; error: string }[];
}

export interface WebSection {
  date: string;
  git: string | null;
  machine: Machine;
  status: 'measured' | 'skipped' | 'failed';
  reason?: string;
  pages: WebResult[];
}

export interface Results {
  api: ApiSection | null;
  web: WebSection | null;
}

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : 'n/a');
const int = (v: number) => Math.round(v).toLocaleString('en-US');

function apiRows(section: ApiSection): string[][] {
  return section.scenarios.map((s) => [
    s.name,
    s.target === 'baseline' ? '—' : s.database === 'postgres' ? 'PostgreSQL' : 'SQLite',
    `${int(s.rps)} ${s.unit}`,
    ms(s.latencyMs.p50),
    ms(s.latencyMs.p95),
    ms(s.latencyMs.p99),
    String(s.bad.total),
    s.ratioToBaseline === null ? '—' : s.ratioToBaseline.toFixed(3),
    String(s.connections),
    cpu(s.cpuMsPerRequest),
    s.rssMb === null ? 'n/a' : s.rssMb.toFixed(0),
  ]);
}
/** Server CPU per request, plus the database's on PostgreSQL (older results have neither). */
function cpu(perRequest: ScenarioResult['cpuMsPerRequest'] | undefined): string {
  if (!perRequest || perRequest.server === null) return 'n/a';
  const server = perRequest.server.toFixed(2);
  return perRequest.database === null ? server : `${server} + ${perRequest.database.toFixed(2)}`;
}
const apiHeader = [
  'scenario',
  'database',
  'rate',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'bad',
  '× baseline',
  'conn',
  'CPU ms/req',
  'RSS MB',
];

function webRows(section: WebSection): string[][] {
  return section.pages.flatMap((page) =>
    page.budgets.map((b) => [`${page.name} ${page.path}`, b.what, b.limit, b.actual, b.pass ? 'pass' : 'FAIL']),
  );
}
const webHeader = ['page', 'measure', 'budget', 'actual', 'result'];

/** A plain-text table for the terminal. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function mdTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

function machineLine(m: Machine): string {
  return `${m.cpus} CPU (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}, ${m.os}`;
}

function failedLines(section: ApiSection): string[] {
  return (section.failed ?? []).map((f) => `FAILED ${f.name}: ${f.error}`);
}

export function apiText(section: ApiSection): string {
  return [textTable(apiHeader, apiRows(section)), ...failedLines(section)].join('\n');
}

export function webText(section: WebSection): string {
  if (section.status !== 'measured') return `web: ${section.status}: ${section.reason}`;
  return textTable(webHeader, webRows(section));
}

export function markdown(results: Results): string {
  const out: string[] = ['# AppDesk benchmark: latest results', ''];
  const api = results.api;
  if (api) {
    const s = api.settings;
    out.push(
      '## API (autocannon)',
      '',
      '| | |',
      '|---|---|',
      `| date | ${api.date} |`,
      `| machine | ${machineLine(api.machine)} |`,
      `| revision | ${api.git ?? 'n/a'} |`,
      `| data | ${int(s.users)} users, ${int(s.coinRecords)} coin records, ${int(s.messages)} messages, ${int(s.auditLog)} operation-log rows (SQLite, then the same rows copied to PostgreSQL${api.postgresConnection ? `, reached through ${api.postgresConnection}` : ''}) |`,
      `| run | ${s.warmupSeconds} s warm-up + ${s.durationSeconds} s per scenario, each scenario on SQLite then PostgreSQL${(s.rounds ?? 1) > 1 ? `, ${s.rounds} rounds alternating; each row is its database's median round by p95` : ''} |`,
      ...(api.seed
        ? [
            `| seed | ${api.seed.totalSeconds.toFixed(1)} s: ${api.seed.phases.map((p) => `${p.phase} ${int(p.rowsPerSecond)} rows/s`).join(', ')} |`,
          ]
        : []),
      '',
      mdTable(apiHeader, apiRows(api)),
      '',
      ...failedLines(api).flatMap((line) => [`- ${line}`, '']),
      '`bad`: answers that were not HTTP 200 with `code: 200`, plus connection errors. `× baseline`: rate divided by the bare-Fastify baseline measured in the same run. RSS: the loaded process after the scenario.',
      '',
    );
  }
  const web = results.web;
  if (web) {
    out.push(
      '## Web (Chromium + Lighthouse 12, mobile)',
      '',
      `date ${web.date}, ${machineLine(web.machine)}, revision ${web.git ?? 'n/a'}`,
      '',
    );
    if (web.status !== 'measured') {
      out.push(`${web.status}: ${web.reason}`, '');
    } else {
      out.push(mdTable(webHeader, webRows(web)), '');
      for (const page of web.pages) {
        const lh = page.lighthouse;
        const metrics = lh
          ? Object.entries(lh.metrics)
              .map(
                ([k, v]) =>
                  `${k} ${v === null ? 'n/a' : k === 'cumulative-layout-shift' ? v.toFixed(3) : `${Math.round(v)} ms`}`,
              )
              .join(', ')
          : 'Lighthouse not run';
        out.push(
          `- ${page.name} \`${page.path}\`: ${page.scripts.length} scripts (${page.scripts
            .map((s) => s.encoding)
            .filter((e, i, a) => a.indexOf(e) === i)
            .join(
              '/',
            )}), ${(page.allBytes / 1024).toFixed(1)} KiB in ${page.requests} requests; ${metrics}${lh ? `; performance runs ${lh.performanceRuns.map((r) => r ?? 'n/a').join(', ')}` : ''}`,
        );
      }
      out.push('');
    }
  }
  return out.join('\n');
}

/** Writes latest.json and latest.md, keeping the other section of the previous results on a partial run. */
export function writeResults(dir: string, update: Partial<Results>): Results {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'latest.json');
  let previous: Results = { api: null, web: null };
  if (existsSync(file)) {
    try {
      previous = JSON.parse(readFileSync(file, 'utf8')) as Results;
    } catch {
      // unreadable: start afresh
    }
  }
  const results: Results = { api: update.api ?? previous.api ?? null, web: update.web ?? previous.web ?? null };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(dir, 'latest.md'), markdown(results));
  return results;
}
