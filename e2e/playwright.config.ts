import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8931);
const workers = Number(process.env.E2E_WORKERS ?? 1);
const specs = ['e2e/**/*.spec.ts', 'packages/web/src/pages/**/*.e2e.ts'];
const siteSpec = 'e2e/spine.spec.ts';
const aloneSpecs = ['packages/web/src/pages/admin/dashboard/*.e2e.ts'];
// The words walk judges what appears after its own writes: data other specs type meanwhile (keys,
// device names) would be judged as its own, so it too runs with nothing beside it.
const wordsSpec = 'e2e/ui-words.spec.ts';

// The end-to-end suite drives Debian's Chromium (never a downloaded browser) against the built
// server on a fresh SQLite database, started once by globalSetup (E2E_TOPOLOGY=cluster: two instances
// behind nginx on PostgreSQL + S3).
export default defineConfig({
  // The shared suites here, and each admin page's own beside its code (pages/admin/<feature>/*.e2e.ts).
  testDir: '..',
  // The spine spec sets the fresh site up, so it runs first. With one worker the file order does that
  // (e2e/spine.spec.ts sorts first) and a failure there skips nothing else. With E2E_WORKERS > 1 it is
  // a project of its own that the others wait for; the specs then run side by side, except those that
  // count the whole site (the dashboard's cards move by exactly what the spec did), which run last, alone.
  ...(workers > 1
    ? {
        projects: [
          { name: 'site', testMatch: [siteSpec] },
          { name: 'pages', testMatch: specs, testIgnore: [siteSpec, wordsSpec, ...aloneSpecs], dependencies: ['site'] },
          { name: 'words', testMatch: [wordsSpec], dependencies: ['pages'] },
          { name: 'alone', testMatch: aloneSpecs, dependencies: ['words'] },
        ],
      }
    : { testMatch: specs }),
  fullyParallel: false,
  // One browser at a time by default; npm test sets E2E_WORKERS=2 for the SQLite run.
  workers,
  retries: process.env.CI ? 1 : 0,
  // Two browsers (and in CI a second suite) on two cores often shared with other work: a test and a
  // wait may take twice their usual time anywhere, and a longer limit costs a passing test nothing.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json']],
  globalSetup: './global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 900 },
    // Recording a trace costs the browser a screencast of every test; it is kept for the retry of a
    // failed test (CI retries once), and E2E_TRACE=1 records every test.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'on-first-retry',
    // As a user who asked the system for less motion: drawers and modals open without animating
    // (AntdRoot), which the browser would otherwise render frame by frame on the CPU.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
