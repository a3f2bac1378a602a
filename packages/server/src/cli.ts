import { isIP } from 'node:net';
import type { Config } from './config';
import { clearLocks } from './core/login-throttle';
import { type DatabaseHandle, openDatabase } from './db/index';

/**
 * Command-line tools that need no signed-in operator (`npm run unlock -- <phone or address>`):
 * the captcha-free recovery when an attacker has locked an account's phone-wide sign-in counter.
 * Answers the process exit code.
 */
export async function runCli(
  args: string[],
  config: Config,
  options: { print?: (line: string) => void; open?: () => Pick<DatabaseHandle, 'db' | 'dialect' | 'close'> } = {},
): Promise<number> {
  const print = options.print ?? console.log;
  const [command, target] = args;
  if (command !== 'unlock' || !target) {
    print('用法：npm run unlock -- <手机号或 IP 地址>    解除该手机号（或该地址）的登录锁定');
    return 2;
  }
  const isPhone = /^1\d{10}$/.test(target);
  if (!isPhone && isIP(target) === 0) {
    print(`“${target}”既不是 11 位手机号，也不是 IP 地址`);
    return 2;
  }
  const database = options.open?.() ?? openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const removed = await clearLocks(database.db, isPhone ? { phone: target } : { ip: target });
    print(
      removed > 0
        ? `已解除 ${target} 的登录锁定（清除 ${removed} 条失败计数）`
        : `${target} 没有登录失败计数，无需解除`,
    );
    return 0;
  } finally {
    await database.close();
  }
}
