import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8931);
const workers = Number(process.env.E2E_WORKERS ?? 1);
const specs = ['e2e/**/*.spec.ts', 'packages/web/src/pages/**/*.e2e.ts'];

// The end-to-end suite drives Debian's Chromium (never a downloaded browser) against the built
// server on a fresh SQLite database, started once by globalSetup (E2E_TOPOLOGY=cluster: two instances
// behind nginx on PostgreSQL + S3).
export default defineConfig({
  // The shared suites here, and each admin page's own beside its code (pages/admin/<feature>/*.e2e.ts).
  testDir: '..',
  // The spine spec sets the fresh site up, so it runs first. With one worker the file order does that
  // (e2e/spine.spec.ts sorts first) and a failure there skips nothing else; with E2E_WORKERS > 1 it
  // is a project of its own that every other spec waits for.
  ...(workers > 1
    ? {
        projects: [
          { name: 'site', testMatch: ['e2e/spine.spec.ts'] },
          {
            name: 'pages',
            testMatch: specs,
            testIgnore: ['e2e/spine.spec.ts'],
            dependencies: ['site'],
          },
        ],
      }
    : { testMatch: specs }),
  fullyParallel: false,
  // One browser at a time by default: the specs share one server and its site settings.
  // (npm test runs the SQLite and the nginx topology side by side instead, each with one worker.)
  workers,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  globalSetup: './global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 900 },
    trace: 'retain-on-failure',
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
