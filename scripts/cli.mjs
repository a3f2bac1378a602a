// The server's command-line tools (`npm run unlock|admin -- …`), on the database the server uses
// (same DATA_DIR / DATABASE_URL / .env): `node scripts/cli.mjs <command> [arguments]`.
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, run } from './lib.mjs';
import { ensureSqliteBinding } from './sqlite-binding.mjs';

ensureInstalled();
ensureSqliteBinding();
ensureBuilt();
process.exit(
  run(process.execPath, [path.join(root, 'packages/server/dist/main.js'), ...process.argv.slice(2)], {
    cwd: process.cwd(),
  }),
);
