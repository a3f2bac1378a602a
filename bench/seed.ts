// Data generator: npm run seed -- --data-dir DIR [--users N] [--coin-records N] [--messages N] [--seed N]
import path from 'node:path';
import { assertKnown, intFlag, parseArgs, stringFlag } from './lib/args';
import { seededPassword } from './lib/fixtures';
import { seed, seedDefaults } from './lib/seed';

const known = ['data-dir', 'users', 'coin-records', 'messages', 'audit-log', 'seed'];
const flags = parseArgs(process.argv.slice(2));
assertKnown(flags, known);
const dataDir = stringFlag(flags, 'data-dir');
if (!dataDir) {
  console.error('usage: npm run seed -- --data-dir DIR [--users 10000] [--coin-records 50000] [--messages 1000]');
  process.exit(2);
}
// npm runs workspace scripts inside bench/: resolve relative paths against where the user typed the command.
const resolved = path.resolve(process.env.INIT_CWD ?? process.cwd(), dataDir);
const options = {
  dataDir: resolved,
  users: intFlag(flags, 'users', seedDefaults.users),
  coinRecords: intFlag(flags, 'coin-records', seedDefaults.coinRecords),
  messages: intFlag(flags, 'messages', seedDefaults.messages),
  auditLog: intFlag(flags, 'audit-log', seedDefaults.auditLog),
  seed: intFlag(flags, 'seed', 20_240_601),
};
console.log(
  `seeding ${resolved}: +${options.users} users, +${options.coinRecords} coin records, +${options.messages} messages`,
);
const report = await seed(options);
console.log(`done in ${report.totalSeconds.toFixed(1)} s: ${report.file}`);
console.log(
  `  totals: ${Object.entries(report.totals)
    .map(([t, c]) => `${t} ${c.toLocaleString('en-US')}`)
    .join(', ')}`,
);
if (report.userIds) {
  console.log(`  users ${report.userIds.first}..${report.userIds.last} sign in with password "${seededPassword}"`);
}
