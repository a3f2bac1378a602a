// `npm run relock`: rewrites package-lock.json from the package.json files alone.
// npm leaves other platforms' optional binaries (Biome's, esbuild's…) out of a lock it updates
// next to an installed node_modules, and `npm ci` then refuses that lock; resolving in an empty
// folder keeps every platform in it. Run it after changing any dependency, then `npm install`.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mustRun, root } from './lib.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'appdesk-relock-'));
try {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  for (const file of ['package.json', '.npmrc', 'package-lock.json', ...workspaces.map((w) => `${w}/package.json`)]) {
    if (!existsSync(path.join(root, file))) continue;
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(work, file));
  }
  mustRun('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], { cwd: work });
  mustRun('npm', ['ci', '--dry-run', '--no-audit', '--no-fund'], { cwd: work });
  cpSync(path.join(work, 'package-lock.json'), path.join(root, 'package-lock.json'));
  console.log('package-lock.json rewritten; run `npm install` to bring node_modules in line');
} finally {
  rmSync(work, { recursive: true, force: true });
}
