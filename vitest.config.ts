import { defineConfig } from 'vitest/config';

// API tests: the shared suites in test/, and each feature's own beside its code.
const apiTests = ['packages/server/test/**/*.test.ts', 'packages/server/src/**/*.test.ts'];

/**
 * The API files whose behaviour two instances behind nginx on PostgreSQL + S3 change, each for a reason:
 * - files stored in S3 and served through either instance: files, uploads and their owners, packages,
 *   sound effects, the image library, backups, the storage sweep, secrets at rest;
 * - state one instance changes and the other must see (caches, sessions, lockouts): site settings,
 *   remote config (and its concurrent saves), releases, sessions, sign-in hardening, idle sessions;
 * - limits and concurrency counted in the shared database from two processes: quotas, idempotency
 *   keys, money, stock;
 * - the proxy in between: client addresses in the logs, slow clients' timeouts, exports streamed
 *   through nginx, and test/cluster.test.ts (two built instances, kill -9, propagation times).
 * Left to api-postgres (same SQL, same database, one instance): the other features' CRUD, the
 * contract sweep, identity.test.ts (its cross-instance part, sessions and sign-in, is covered by
 * sessions, sign-in-hardening and cluster.test.ts), counts kept by triggers.
 */
const clusterTests = [
  ...['files/files', 'version/apk', 'version/version', 'soundeffect/soundeffect', 'unsplash/unsplash'],
  ...['allocation/settings', 'a11t/a11t', 'a11t/concurrent', 'sessions/sessions', 'exchange/exchange'],
].map((f) => `packages/server/src/features/${f}.test.ts`);
clusterTests.push(
  ...['ops/backup', 'ops/sweep', 'http/timeouts'].map((f) => `packages/server/src/${f}.test.ts`),
  ...[
    'upload-ownership',
    'secrets-at-rest',
    'allocation',
    'sign-in-hardening',
    'idle-session',
    'quotas',
    'idempotency',
    'money-concurrency',
    'logs',
    'export-order',
    'cluster',
  ].map((f) => `packages/server/test/${f}.test.ts`),
);

// Test files share no module state that matters (each starts its own server on its own database or
// schema), so a worker imports the server's modules once instead of once per file (about 4 s each).
const shared = { isolate: false };

// Every test server starts from a copy of a database migrated once per run (test/template-setup.ts).
const template = 'packages/server/test/template-setup.ts';

// A limit only ends a test that is failing anyway, so it costs a passing one nothing: generous ones,
// since the 2 cores are often shared (CI at load 25 timed out 200 concurrent redemptions at 30 s).
const limits = { testTimeout: 120_000, hookTimeout: 120_000 };

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
          globalSetup: [template],
          ...limits,
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
                globalSetup: [template],
                ...limits,
              },
            },
            // Against two instances on one schema with S3 storage (radosgw) behind a private nginx
            // (test/harness.ts, TEST_DB=cluster): the files where that changes behaviour, not the whole
            // suite a third time (beside the other two it made the API phase 745 s in a CI of 2,873 s, for
            // handlers that run the same SQL on the same PostgreSQL either way). On by default with
            // TEST_DATABASE_URL (as in CI); TEST_CLUSTER=0 leaves it out.
            ...(process.env.TEST_CLUSTER === '0'
              ? []
              : [
                  {
                    test: {
                      ...shared,
                      name: 'api-cluster',
                      include: clusterTests,
                      globalSetup: [template, 'packages/server/test/cluster-setup.ts'],
                      // Also covers the first test server's wait for radosgw (about 30 s, started in the background).
                      ...limits,
                    },
                  },
                ]),
          ]
        : []),
    ],
  },
});
