// Bundles the server and the contract into dist/main.js; npm packages stay external.
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
