// Bundles the server and the contract into dist/main.js; npm packages stay external.

import { spawn } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { context } from 'esbuild';

/**
 * Expands Vite's eager `import.meta.glob('./dir/*.ts', { eager: true })` (used to find features
 * and contract entries without hand-kept lists) into static imports, as Vite and Vitest do.
 * Supports what the code uses: one `*` per path segment and `!` exclusions.
 */
function importMetaGlob() {
  const call = /import\.meta\.glob(?:<[\s\S]*?>)?\(\s*(\[[^\]]*\]|'[^']*')\s*,\s*\{\s*eager:\s*true,?\s*\}\s*,?\s*\)/g;
  const toRegExp = (glob) => new RegExp(`^${glob.replace(/[.+?^${}()|\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
  const expand = (dir, pattern) => {
    const [head, ...rest] = pattern.split('/');
    if (head === '.' || head === '..') return expand(path.join(dir, head), rest.join('/')).map((f) => `${head}/${f}`);
    const match = toRegExp(head);
    const names = readdirSync(dir, { withFileTypes: true }).filter((e) => match.test(e.name));
    if (rest.length === 0) return names.filter((e) => e.isFile()).map((e) => e.name);
    return names
      .filter((e) => e.isDirectory())
      .flatMap((e) => expand(path.join(dir, e.name), rest.join('/')).map((f) => `${e.name}/${f}`));
  };
  return {
    name: 'import-meta-glob',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.glob')) return undefined;
        const imports = [];
        const contents = source.replace(call, (_all, arg) => {
          const parsed = JSON.parse(arg.replaceAll("'", '"'));
          const patterns = Array.isArray(parsed) ? parsed : [parsed];
          const excluded = patterns.filter((p) => p.startsWith('!')).map((p) => toRegExp(p.slice(1)));
          const files = patterns
            .filter((p) => !p.startsWith('!'))
            .flatMap((p) => expand(path.dirname(args.path), p))
            .filter((f) => !excluded.some((x) => x.test(f)))
            .sort();
          const entries = files.map((file) => {
            const name = `__glob${imports.length}`;
            imports.push(`import * as ${name} from ${JSON.stringify(file)};`);
            return `${JSON.stringify(file)}: ${name}`;
          });
          return `({ ${entries.join(', ')} })`;
        });
        return { contents: `${imports.join('\n')}\n${contents}`, loader: 'ts' };
      });
    },
  };
}

/**
 * The contract's pattern export `./rules/*` → `./src/endpoints/*.rules.ts` (its package.json), which
 * the prefix alias below cannot express: without it `@appdesk/contract/rules/apps` does not resolve.
 */
function contractRules() {
  return {
    name: 'contract-rules',
    setup(b) {
      b.onResolve({ filter: /^@appdesk\/contract\/rules\/[\w-]+$/ }, (args) => ({
        path: path.resolve('../contract/src/endpoints', `${args.path.split('/').pop()}.rules.ts`),
      }));
    },
  };
}

const builder = await context({
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
  plugins: [contractRules(), importMetaGlob()],
  logLevel: 'warning',
});

await builder.rebuild();
// The SQLite pool's worker runs as its own file beside the bundle (see src/db/sqlite-worker.mjs).
copyFileSync('src/db/sqlite-worker.mjs', 'dist/sqlite-worker.mjs');
copyFileSync('src/db/grams.mjs', 'dist/grams.mjs');
// So does the APK manifest parser's (see src/features/version/apk-worker.mjs).
copyFileSync('src/features/version/apk-worker.mjs', 'dist/apk-worker.mjs');

if (process.argv.includes('--watch')) {
  // `npm run dev`: rebuild on every change and restart the server on every rebuild.
  await builder.watch();
  spawn(process.execPath, ['--watch', '--enable-source-maps', 'dist/main.js'], { stdio: 'inherit' });
} else {
  await builder.dispose();
}
