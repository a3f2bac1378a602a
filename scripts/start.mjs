// `npm start`: install what is missing, build what is stale, then serve (migrations run at start-up).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serverEnv, serverNodeArgsFor } from '../packages/server/runtime.mjs';
import { ensureBuilt, ensureInstalled, root } from './lib.mjs';
import { ensureSqliteBinding } from './sqlite-binding.mjs';

ensureInstalled();
ensureSqliteBinding();
ensureBuilt();
// The server reads the same .env at start-up; here it decides the flags (SQLite or PostgreSQL).
if (existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));
const port = process.env.PORT || '8000';
console.log(`▸ 启动 AppDesk：http://localhost:${port}（数据目录 ${process.env.DATA_DIR || './data'}）`);
const server = spawn(
  process.execPath,
  [...serverNodeArgsFor(process.env.DATABASE_URL), path.join(root, 'packages/server/dist/main.js')],
  {
    cwd: root,
    env: { ...serverEnv, ...process.env },
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
