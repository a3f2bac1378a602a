// `npm run unlock -- <phone or address>`: clears the sign-in lock of a phone (every address) or
// of an address, on the database the server uses (same DATA_DIR / DATABASE_URL / .env).
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, run } from './lib.mjs';

ensureInstalled();
ensureBuilt();
process.exit(
  run(process.execPath, [path.join(root, 'packages/server/dist/main.js'), 'unlock', ...process.argv.slice(2)], {
    cwd: process.cwd(),
  }),
);
