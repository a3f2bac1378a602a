import { isIP } from 'node:net';
import type { Config } from './config';
import { clearLocks } from './core/login-throttle';
import { type DatabaseHandle, openDatabase } from './db/index';
import { grantAdmin, listAdmins, resetAdminPassword } from './ops/admin-cli';

type Print = (line: string) => void;
type Handle = Pick<DatabaseHandle, 'db' | 'dialect' | 'close'>;

/** Commands `node dist/main.js <command>` runs instead of the server (the npm scripts below call them). */
export const cliCommands = new Set(['unlock', 'admin']);

const usage = [
  '用法：',
  '  npm run unlock -- <手机号或 IP 地址>           解除该手机号（或该地址）的登录锁定',
  '  npm run admin -- list                          列出全部管理员',
  '  npm run admin -- grant <手机号或用户 ID>         把该账号设为管理员',
  '  npm run admin -- reset-password <手机号或用户 ID> 为管理员生成新的初始密码（只显示一次）',
];

/**
 * Command-line tools that need no signed-in operator, run against the configured database (same
 * DATA_DIR / DATABASE_URL / .env as the server): clearing a sign-in lock, and the recovery of
 * administrator access. Every change is recorded in the operation log as made from the command
 * line. Answers the process exit code.
 */
export async function runCli(
  args: string[],
  config: Config,
  options: { print?: Print; open?: () => Handle } = {},
): Promise<number> {
  const print = options.print ?? console.log;
  const [command, sub, target] = args;
  const run = async (work: (handle: Handle) => Promise<number>) => {
    const database = options.open?.() ?? openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  };
  if (command === 'unlock' && sub) return unlock(sub, print, run);
  if (command === 'admin' && sub === 'list') return run(({ db }) => listAdmins(db, print));
  if (command === 'admin' && sub === 'grant' && target) return run(({ db }) => grantAdmin(db, target, print));
  if (command === 'admin' && sub === 'reset-password' && target) {
    return run(({ db }) => resetAdminPassword(db, target, print));
  }
  for (const line of usage) print(line);
  return 2;
}

async function unlock(
  target: string,
  print: Print,
  run: (work: (handle: Handle) => Promise<number>) => Promise<number>,
) {
  const isPhone = /^1\d{10}$/.test(target);
  if (!isPhone && isIP(target) === 0) {
    print(`“${target}”既不是 11 位手机号，也不是 IP 地址`);
    return 2;
  }
  return run(async ({ db }) => {
    const removed = await clearLocks(db, isPhone ? { phone: target } : { ip: target });
    print(
      removed > 0
        ? `已解除 ${target} 的登录锁定（清除 ${removed} 条失败计数）`
        : `${target} 没有登录失败计数，无需解除`,
    );
    return 0;
  });
}
