import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Where a cold load's time goes (console.ts --trace): one load of the page traced by Chromium,
 * its renderer main thread's time by activity (self time of each trace event), and a JavaScript
 * CPU profile by function and by script. What the budget of issue 12 is spent on, so work on it
 * starts from numbers.
 */
export interface ColdTrace {
  firstRowMs: number;
  /** Self time on the renderer's main thread per trace event name, largest first. */
  mainThread: [string, number][];
  /** Self time per JavaScript function (name and script), largest first. */
  functions: [string, number][];
  /** Self time per script file, largest first. */
  scripts: [string, number][];
  /** Responses by the time they finished (ms from navigation start). */
  network: [string, number][];
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: unknown };
type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const shortUrl = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '') || '(native)';

/** Self time per event name on one thread, from complete (X) and begin/end (B/E) events. */
function selfTimes(events: TraceEvent[]): Map<string, number> {
  const spans = events
    .filter((e) => e.ph === 'X' && e.dur !== undefined)
    .map((e) => ({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0) }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const totals = new Map<string, number>();
  const stack: { name: string; end: number; child: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack[stack.length - 1].end <= upTo) {
      const done = stack.pop() as { name: string; end: number; child: number };
      const own = (totals.get(done.name) ?? 0) - done.child;
      totals.set(done.name, own);
    }
  };
  for (const span of spans) {
    close(span.start);
    const duration = span.end - span.start;
    totals.set(span.name, (totals.get(span.name) ?? 0) + duration);
    const parent = stack[stack.length - 1];
    if (parent) parent.child += duration;
    // The children's time comes off the parent's total when the parent closes.
    stack.push({ name: span.name, end: span.end, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return totals;
}

function profileSelfTimes(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const functions = new Map<string, number>();
  const scripts = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = shortUrl(url);
    const fn = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    scripts.set(file, (scripts.get(file) ?? 0) + ms);
  });
  return { functions, scripts };
}

const top = (map: Map<string, number>, n: number): [string, number][] =>
  [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

/** Traces one cold load of `url` in a fresh context; `rowAt` answers the page clock's first-row time. */
export async function traceColdLoad(
  context: BrowserContext,
  page: Page,
  url: string,
  rowAt: (page: Page) => Promise<number>,
  traceFile: string,
): Promise<ColdTrace> {
  const cdp = await context.newCDPSession(page);
  const chunks: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => {
    chunks.push(...(data.value as unknown as TraceEvent[]));
  });
  const traced = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'v8',
        'blink',
        'loading',
        'toplevel',
        'disabled-by-default-devtools.timeline',
      ],
    },
    transferMode: 'ReportEvents',
  });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  // Playwright times each response from its own request's start (epoch ms): put them on the
  // navigation's clock, the page's request being the first.
  const finished: { url: string; start: number; end: number }[] = [];
  page.on('requestfinished', (request) => {
    const timing = request.timing();
    finished.push({
      url: shortUrl(request.url()),
      start: timing.startTime,
      end: timing.startTime + timing.responseEnd,
    });
  });
  await page.goto(url, { waitUntil: 'commit' });
  const firstRowMs = await rowAt(page);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  const navigationStart = Math.min(...finished.map((f) => f.start));
  await cdp.send('Tracing.end');
  await traced;
  writeFileSync(traceFile, JSON.stringify({ traceEvents: chunks }));

  // The renderer's main thread: the thread named CrRendererMain with the most events.
  const names = chunks.filter((e) => e.ph === 'M' && e.name === 'thread_name');
  const mains = names.filter((e) => (e.args as { name?: string })?.name === 'CrRendererMain');
  const counts = mains.map((m) => ({ m, n: chunks.filter((e) => e.pid === m.pid && e.tid === m.tid).length }));
  const main = counts.sort((a, b) => b.n - a.n)[0]?.m;
  const mainEvents = main ? chunks.filter((e) => e.pid === main.pid && e.tid === main.tid) : [];
  const totals = selfTimes(mainEvents);
  for (const [name, us] of totals) totals.set(name, us / 1000);
  const { functions, scripts } = profileSelfTimes(profile);
  return {
    firstRowMs,
    mainThread: top(totals, 25),
    functions: top(functions, 40),
    scripts: top(scripts, 25),
    network: finished.map((f): [string, number] => [f.url, f.end - navigationStart]).sort((a, b) => a[1] - b[1]),
  };
}
