// Copies a seeded SQLite data set into a fresh PostgreSQL database and keeps it, for looking at
// plans by hand: npm run pg-copy -w @appdesk/bench -- --data-dir DIR [--postgres URL]
import path from 'node:path';
import { assertKnown, parseArgs, stringFlag } from './lib/args';
import { seedPostgres } from './lib/seed-postgres';

const flags = parseArgs(process.argv.slice(2));
assertKnown(flags, ['data-dir', 'postgres']);
const dataDir = stringFlag(flags, 'data-dir');
if (!dataDir) {
  console.error('usage: npm run pg-copy -w @appdesk/bench -- --data-dir DIR [--postgres URL]');
  process.exit(2);
}
const resolved = path.resolve(process.env.INIT_CWD ?? process.cwd(), dataDir);
const adminUrl =
  stringFlag(flags, 'postgres') ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seeded = await seedPostgres({
  sqliteFile: path.join(resolved, 'appdesk.sqlite'),
  adminUrl,
  log: (line) => console.log(line),
});
console.log(
  `kept: ${seeded.url} (drop it with: psql ${adminUrl} -c 'drop database ${new URL(seeded.url).pathname.slice(1)}')`,
);
