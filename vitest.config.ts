import { defineConfig } from 'vitest/config';

// API tests: the shared suites in test/, and each feature's own beside its code.
const apiTests = ['packages/server/test/**/*.test.ts', 'packages/server/src/**/*.test.ts'];

// The API suite runs on SQLite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['packages/contract/test/**/*.test.ts', 'packages/web/src/**/*.test.ts'] } },
      { test: { name: 'api-sqlite', include: apiTests, env: { TEST_DB: 'sqlite' }, testTimeout: 30_000 } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ test: { name: 'api-postgres', include: apiTests, env: { TEST_DB: 'postgres' }, testTimeout: 30_000 } }]
        : []),
    ],
  },
});
