import { type LoadContext, runScenario, type Scenario, type ScenarioResult } from './load';

/** One database's server, ready to be loaded: its context and its scenarios. */
export interface DatabaseRun {
  database: 'sqlite' | 'postgres';
  ctx: LoadContext;
  list: Scenario[];
}

/**
 * Runs each scenario on every database in turn before the next scenario, `roundCount` times: the
 * figures of a scenario are taken seconds apart, so a change in the machine's speed during the
 * run (this VM's varies by a third within minutes) moves every database's figure rather than
 * their ratio. Each database's row is its median round by p95. Results are listed database by
 * database.
 */
export async function runInterleaved(
  targets: DatabaseRun[],
  roundCount: number,
  results: ScenarioResult[],
  failed: { name: string; error: string }[],
  log: (line: string) => void,
): Promise<void> {
  const measured: ScenarioResult[][] = targets.map(() => []);
  const names = [...new Set(targets.flatMap((t) => t.list.map((scenario) => scenario.name)))];
  for (const name of names) {
    const rounds: ScenarioResult[][] = targets.map(() => []);
    for (let round = 1; round <= roundCount; round++) {
      for (const [index, { database, ctx, list }] of targets.entries()) {
        const scenario = list.find((one) => one.name === name);
        // The baseline (and a scenario that failed) runs once.
        if (!scenario || (round > 1 && (scenario.target === 'baseline' || rounds[index].length === 0))) continue;
        const of = roundCount > 1 ? ` (round ${round} of ${roundCount})` : '';
        log(`  ${name} on ${database}${of}: ${ctx.warmupSeconds} s warm-up + ${ctx.durationSeconds} s…`);
        try {
          rounds[index].push({ ...(await runScenario(scenario, ctx)), database });
        } catch (error) {
          // One broken endpoint should not cost the other figures.
          log(`  ${name} on ${database} failed: ${(error as Error).message}`);
          failed.push({ name: `${name} (${database})`, error: (error as Error).message });
        }
      }
    }
    for (const [index, done] of rounds.entries()) {
      if (done.length === 0) continue;
      const median = [...done].sort((a, b) => a.latencyMs.p95 - b.latencyMs.p95)[(done.length - 1) >> 1];
      const base = measured[0].find((r) => r.target === 'baseline');
      if (base && median.target !== 'baseline') median.ratioToBaseline = median.rps / base.rps;
      measured[index].push(median);
    }
  }
  results.push(...measured.flat());
}
