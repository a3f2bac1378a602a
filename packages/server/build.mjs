// Bundles the server and the contract into dist/main.js; npm packages stay external.
import { copyFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  // The contract is a workspace package shipped as TypeScript: bundle it in.
  alias: { '@appdesk/contract': '../contract/src' },
  logLevel: 'warning',
});

// The SQLite pool's worker runs as its own file beside the bundle (see src/db/sqlite-pool.ts).
copyFileSync('src/db/sqlite-worker.mjs', 'dist/sqlite-worker.mjs');
