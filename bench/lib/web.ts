import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { onExit } from './processes';

export const CHROMIUM = '/usr/bin/chromium';
/** Never let the browser reach out (updates, sync, field trials): the only target is 127.0.0.1. */
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface WebPage {
  name: string;
  path: string;
  budget: { jsKiB: number; performance: number; accessibility: number };
}

/** The pages measured and their budgets (KiB of compressed JavaScript, Lighthouse mobile scores 0..1). */
export const webPages: WebPage[] = [
  { name: 'home', path: '/', budget: { jsKiB: 80, performance: 0.95, accessibility: 0.9 } },
  { name: 'login', path: '/user/login', budget: { jsKiB: 210, performance: 0.9, accessibility: 0.9 } },
];

export interface ScriptTransfer {
  url: string;
  encoding: string;
  /** Bytes on the wire for the body (compressed when encoding is br or gzip). */
  transferBytes: number;
}

export interface WebResult {
  name: string;
  path: string;
  acceptEncoding: string;
  scripts: ScriptTransfer[];
  jsBytes: number;
  /** Every response body of the page load (HTML, CSS, JS, images, API calls). */
  allBytes: number;
  requests: number;
  lighthouse: {
    runs: number;
    performance: number | null;
    accessibility: number | null;
    /** Scores of every run, for spotting noise. */
    performanceRuns: (number | null)[];
    metrics: Record<string, number | null>;
    warnings: string[];
    report?: string;
  } | null;
  budgets: { what: string; limit: string; actual: string; pass: boolean }[];
}

/**
 * Loads each page in Chromium (fresh profile, no cache) and sums the encoded body sizes of the
 * JavaScript it downloads, as the network reports them: module scripts, modulepreloads and the
 * lazy chunks the page asks for until the network is idle.
 */
async function measureTransfers(base: string, page: WebPage) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const pending: Promise<{ js: boolean; transfer: ScriptTransfer; acceptEncoding: string } | null>[] = [];
    tab.on('requestfinished', (request) => {
      pending.push(
        (async () => {
          const response = await request.response();
          if (!response) return null;
          const [sizes, headers, sent] = await Promise.all([
            request.sizes(),
            response.allHeaders(),
            request.allHeaders(),
          ]);
          const js = request.resourceType() === 'script' || /javascript/.test(headers['content-type'] ?? '');
          return {
            js,
            acceptEncoding: sent['accept-encoding'] ?? '',
            transfer: {
              url: request.url(),
              encoding: headers['content-encoding'] ?? 'identity',
              transferBytes: sizes.responseBodySize,
            },
          };
        })().catch(() => null),
      );
    });
    await tab.goto(new URL(page.path, base).href, { waitUntil: 'networkidle', timeout: 60_000 });
    const entries = (await Promise.all(pending)).filter((e) => e !== null);
    await context.close();
    const scripts = entries.filter((e) => e.js).map((e) => e.transfer);
    return {
      acceptEncoding: entries[0]?.acceptEncoding ?? '',
      scripts,
      jsBytes: scripts.reduce((sum, s) => sum + s.transferBytes, 0),
      allBytes: entries.reduce((sum, e) => sum + e.transfer.transferBytes, 0),
      requests: entries.length,
    };
  } finally {
    await browser.close();
  }
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];

/** Lighthouse 12, default config (mobile emulation, simulated slow 4G and 4x CPU slowdown). */
async function runLighthouse(url: string, runs: number, reportDir: string, name: string) {
  const results: { performance: number | null; accessibility: number | null; lhr: LighthouseResult; html: string }[] =
    [];
  const failures: string[] = [];
  // Each run gets one retry: a run can fail for reasons outside the page (a busy machine, the
  // web app being rebuilt underneath); a page that fails twice in a row is reported as failed.
  for (let attempt = 0; results.length < runs && attempt < runs * 2; attempt++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    const unregister = onExit(() => chrome.kill());
    try {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'html',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      });
      if (!result) throw new Error('Lighthouse returned no result');
      const lhr = result.lhr as LighthouseResult;
      if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      results.push({
        performance: lhr.categories.performance?.score ?? null,
        accessibility: lhr.categories.accessibility?.score ?? null,
        lhr,
        html: String(result.report),
      });
    } catch (error) {
      failures.push((error as Error).message);
      if (failures.length > results.length + 1) break;
    } finally {
      chrome.kill();
      unregister();
    }
  }
  if (results.length === 0) throw new Error(`Lighthouse failed on ${url}: ${failures.join('; ')}`);
  // The median run by performance score stands for the page.
  const sorted = [...results].sort((a, b) => (a.performance ?? -1) - (b.performance ?? -1));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  mkdirSync(reportDir, { recursive: true });
  const report = path.join(reportDir, `${name}.html`);
  writeFileSync(report, median.html);
  const metrics: Record<string, number | null> = {};
  for (const id of METRICS) metrics[id] = median.lhr.audits[id]?.numericValue ?? null;
  return {
    runs,
    performance: median.performance,
    accessibility: median.accessibility,
    performanceRuns: results.map((r) => r.performance),
    metrics,
    warnings: [...median.lhr.runWarnings, ...failures.map((f) => `a run failed: ${f}`)],
    report,
  };
}

/** The parts of Lighthouse's result read here. */
interface LighthouseResult {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number } | undefined>;
  runWarnings: string[];
  runtimeError?: { code: string; message: string };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const score = (value: number | null) => (value === null ? 'n/a' : value.toFixed(2));

export async function measureWeb(
  base: string,
  options: { lighthouseRuns: number; reportDir: string; log: (line: string) => void },
): Promise<WebResult[]> {
  if (new URL(base).hostname !== '127.0.0.1') throw new Error('web measurements only target 127.0.0.1');
  const results: WebResult[] = [];
  for (const page of webPages) {
    options.log(`  ${page.name} (${page.path}): JavaScript transferred`);
    const transfers = await measureTransfers(base, page);
    let lh: WebResult['lighthouse'] = null;
    if (options.lighthouseRuns > 0) {
      options.log(`  ${page.name} (${page.path}): Lighthouse ×${options.lighthouseRuns}`);
      lh = await runLighthouse(new URL(page.path, base).href, options.lighthouseRuns, options.reportDir, page.name);
    }
    const budgets: WebResult['budgets'] = [
      {
        what: 'JS compressed',
        limit: `≤ ${page.budget.jsKiB} KiB`,
        actual: kib(transfers.jsBytes),
        pass: transfers.jsBytes <= page.budget.jsKiB * 1024,
      },
    ];
    if (lh) {
      budgets.push(
        {
          what: 'Lighthouse performance',
          limit: `≥ ${page.budget.performance.toFixed(2)}`,
          actual: score(lh.performance),
          pass: (lh.performance ?? 0) >= page.budget.performance,
        },
        {
          what: 'Lighthouse accessibility',
          limit: `≥ ${page.budget.accessibility.toFixed(2)}`,
          actual: score(lh.accessibility),
          pass: (lh.accessibility ?? 0) >= page.budget.accessibility,
        },
      );
    }
    results.push({ name: page.name, path: page.path, ...transfers, lighthouse: lh, budgets });
  }
  return results;
}
