// Compares runs of two builds measured alternately (A, B, A, B …) on a shared machine:
//   node --import tsx compare.ts --before a1.json,a2.json --after b1.json,b2.json [--only name,name]
// Each file is a latest.json that `npm run bench` wrote (copy it away after each run). The i-th
// before run is paired with the i-th after run (taken minutes apart), and a scenario's change is
// the mean over the pairs of after ÷ before, of its rate as a share of its own run's baseline and
// of its p95: a load that moves both runs of a pair cancels out, one that moves only one does not.
// Prints a Markdown table, SQLite beside PostgreSQL: before → after (change) of each measure.
import { readFileSync } from 'node:fs';
import { assertKnown, parseArgs, stringFlag } from './lib/args';
import type { ScenarioResult } from './lib/load';
import type { Results } from './lib/report';

const flags = parseArgs(process.argv.slice(2));
assertKnown(flags, ['before', 'after', 'only']);
const files = (name: string) => (stringFlag(flags, name) ?? '').split(',').filter(Boolean);
const before = files('before').map(load);
const after = files('after').map(load);
if (before.length === 0 || before.length !== after.length)
  throw new Error('--before and --after need the same number of result files (one pair per alternation)');
const only = stringFlag(flags, 'only')?.split(',');

function load(file: string): ScenarioResult[] {
  const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
  if (!results.api) throw new Error(`${file}: no API section`);
  return results.api.scenarios;
}

type Database = 'sqlite' | 'postgres';
const find = (run: ScenarioResult[], name: string, database: Database) =>
  run.find((r) => r.name === name && (r.database ?? 'sqlite') === database && r.target === 'server');

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const signed = (change: number) => `${change >= 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(1)} %`;
const ratio = (v: number) => v.toFixed(3);
const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));

/** Mean over the pairs of before, after and after ÷ before − 1 (null when a pair lacks the scenario). */
function change(name: string, database: Database, of: (r: ScenarioResult) => number | null) {
  const pairs: [number, number][] = [];
  for (const [i, run] of before.entries()) {
    const a = find(run, name, database);
    const b = find(after[i], name, database);
    const x = a && of(a);
    const y = b && of(b);
    if (x && y) pairs.push([x, y]);
  }
  if (pairs.length === 0) return null;
  return {
    before: mean(pairs.map(([x]) => x)),
    after: mean(pairs.map(([, y]) => y)),
    change: mean(pairs.map(([x, y]) => y / x - 1)),
    pairs: pairs.length,
  };
}

const names = [...new Set(after.flat().map((r) => r.name))].filter(
  (name) => name !== 'baseline' && (!only || only.some((prefix) => name.startsWith(prefix))),
);
// Per database: the rate as a share of the run's baseline, the p95, and the server's CPU per call
// (the steadiest of the three on a shared machine: other processes' load lengthens waits, not the
// CPU a call takes; PostgreSQL's own CPU is left out, as other processes use that server too).
const measures: [string, (r: ScenarioResult) => number | null, (v: number) => string][] = [
  ['× baseline', (r) => r.ratioToBaseline, ratio],
  ['p95 ms', (r) => r.latencyMs.p95, ms],
  ['server CPU ms/call', (r) => r.cpuMsPerRequest.server, (v) => v.toFixed(2)],
];
const header = ['scenario'];
for (const db of ['SQLite', 'PostgreSQL']) for (const [label] of measures) header.push(`${db} ${label}`);
const rows = names.map((name) => {
  const cells = [name];
  for (const database of ['sqlite', 'postgres'] as const) {
    for (const [, of, format] of measures) {
      const c = change(name, database, of);
      cells.push(c ? `${format(c.before)} → ${format(c.after)} (${signed(c.change)})` : 'n/a');
    }
  }
  return cells;
});
// Over all scenarios: the geometric mean of after ÷ before, per database and measure (what a
// change common to every call would show; one scenario's noise weighs 1/n).
const overall = ['overall (geometric mean over the scenarios)'];
for (const database of ['sqlite', 'postgres'] as const) {
  for (const [, of] of measures) {
    const logs = names.flatMap((name) => {
      const c = change(name, database, of);
      return c ? [Math.log(c.change + 1)] : [];
    });
    overall.push(logs.length > 0 ? signed(Math.exp(mean(logs)) - 1) : 'n/a');
  }
}
rows.push(overall);
const baselines = (runs: ScenarioResult[][]) =>
  runs.map((run) => Math.round(run.find((r) => r.name === 'baseline')?.rps ?? 0).toLocaleString('en-US')).join(', ');
console.log(`Pairs: ${before.length}. Baseline req/s, before: ${baselines(before)}; after: ${baselines(after)}.\n`);
console.log(
  [header, header.map((_, i) => (i === 0 ? '---' : '---:')), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n'),
);
