import { defineConfig } from 'vitest/config';

// API tests: the shared suites in test/, and each feature's own beside its code.
const apiTests = ['packages/server/test/**/*.test.ts', 'packages/server/src/**/*.test.ts'];

// Test files share no module state that matters (each starts its own server on its own database or
// schema), so a worker imports the server's modules once instead of once per file (about 4 s each).
const shared = { isolate: false };

// The API suite runs on SQLite always, and again on PostgreSQL and behind nginx (two instances on
// PostgreSQL + S3) when TEST_DATABASE_URL is set.
export default defineConfig({
  test: {
    // On the 2-core CI machine Vitest's default is one worker, and most of a test's time is spent
    // waiting on its server and database; three keep both cores busy.
    maxWorkers: 3,
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['packages/contract/test/**/*.test.ts', 'packages/web/src/**/*.test.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'api-sqlite',
          include: apiTests,
          env: { TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          // A test server migrates a fresh database first: past 10 s on a busy 2-core machine.
          hookTimeout: 30_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                ...shared,
                name: 'api-postgres',
                include: apiTests,
                env: { TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 30_000,
              },
            },
            // The same suite against two instances on one schema with S3 storage (radosgw) behind a
            // private nginx (test/harness.ts, TEST_DB=cluster). On by default with TEST_DATABASE_URL (as
            // in CI: about 5 minutes beside the others on the 2-core machine); TEST_CLUSTER=0 leaves it out.
            ...(process.env.TEST_CLUSTER === '0'
              ? []
              : [
                  {
                    test: {
                      ...shared,
                      name: 'api-cluster',
                      include: apiTests,
                      env: { TEST_DB: 'cluster' },
                      globalSetup: ['packages/server/test/cluster-setup.ts'],
                      // The first test server waits for radosgw (about 30 s, started in the background).
                      hookTimeout: 120_000,
                      // One more hop and twice the servers: the slowest tests need longer than on one instance.
                      testTimeout: 60_000,
                    },
                  },
                ]),
          ]
        : []),
    ],
  },
});
