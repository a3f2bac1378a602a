import { isIP } from 'node:net';
import path from 'node:path';
import { fileReferences } from './app';
import type { Config } from './config';
import { clearLocks } from './core/login-throttle';
import { type DatabaseHandle, openDatabase } from './db/index';
import { grantAdmin, listAdmins, resetAdminPassword, resetTotp } from './ops/admin-cli';
import { makeBackup } from './ops/backup';
import { restoreBackup } from './ops/restore';
import { rotateSecrets } from './ops/rotate-secrets';
import { sweepStorage } from './ops/sweep';
import { openStorage } from './storage/open';
import type { FileStorage } from './storage/types';

type Print = (line: string) => void;
type Handle = Pick<DatabaseHandle, 'db' | 'dialect' | 'close'>;

/** Commands `node dist/main.js <command>` runs instead of the server (the npm scripts below call them). */
export const cliCommands = new Set(['unlock', 'admin', 'backup', 'restore', 'storage-sweep', 'rotate-secrets']);

const usage = [
  '用法：',
  '  npm run unlock -- <手机号或 IP 地址>           解除该手机号（或该地址）的登录锁定',
  '  npm run admin -- list                          列出全部管理员',
  '  npm run admin -- grant <手机号或用户 ID>         把该账号设为管理员',
  '  npm run admin -- reset-password <手机号或用户 ID> 为管理员生成新的初始密码（只显示一次）',
  '  npm run admin -- reset-totp <手机号或用户 ID>     重置两步验证（验证器丢失且恢复码用完时）',
  '  npm run backup [-- <目录>]                      在线备份数据库与文件到一个归档（默认 ./backups）',
  '  npm run storage-sweep [-- --remove]            找出无人引用的存储对象、指向缺失对象的 files 记录与中断的上传（--remove 删除）',
  '  npm run restore -- <归档>                       把归档恢复到空的数据目录（及空的 PostgreSQL 数据库）',
  '  npm run rotate-secrets                         用当前 APPDESK_SECRETS_KEY 重新加密应用密钥（轮换密钥时）',
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
  options: { print?: Print; open?: () => Handle; storage?: FileStorage } = {},
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
  if (command === 'admin' && sub === 'reset-totp' && target) return run(({ db }) => resetTotp(db, target, print));
  if (command === 'backup') {
    const outDir = path.resolve(sub ?? 'backups');
    return run(async ({ db, dialect }) => {
      const filesOnS3 = Boolean(config.storageUrl);
      const source = { db, dialect, dataDir: config.dataDir, databaseUrl: config.databaseUrl, filesOnS3 };
      const made = await makeBackup(source, outDir).catch((error: Error) => error);
      if (made instanceof Error) {
        print(`备份失败：${made.message}`);
        return 1;
      }
      const { archive, manifest } = made;
      const rows = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
      print(`备份完成：${archive}`);
      print(`  ${Object.keys(manifest.rows).length} 张表共 ${rows} 行，${manifest.files.length} 个文件`);
      if (manifest.missingFiles.length) print(`  注意：数据库登记的 ${manifest.missingFiles.length} 个文件不存在`);
      if (filesOnS3) print('  文件存放在 S3 对象存储中，不在归档内：请用存储桶的版本控制或复制保护它们');
      return 0;
    });
  }
  if (command === 'storage-sweep') {
    const storage = options.storage ?? (await openStorage(config.storageUrl, config.dataDir));
    const grace = args.find((a) => a.startsWith('--pending-grace-minutes='))?.split('=')[1];
    const pendingGraceMs = grace === undefined ? undefined : Number(grace) * 60_000;
    if (pendingGraceMs !== undefined && !(pendingGraceMs >= 0)) {
      print('--pending-grace-minutes= 应为不小于 0 的分钟数');
      return 2;
    }
    return run(({ db }) => sweep({ db, storage }, { remove: args.includes('--remove'), pendingGraceMs }, print));
  }
  if (command === 'restore' && sub) return restore(sub, config, print);
  if (command === 'rotate-secrets') return run(({ db }) => rotateSecrets(db, config, print));
  for (const line of usage) print(line);
  return 2;
}

async function restore(archive: string, config: Config, print: Print): Promise<number> {
  try {
    const result = await restoreBackup(archive, { dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    print(
      `已恢复 ${result.manifest.createdAt} 的备份到 ${config.dataDir}${config.databaseUrl ? ' 与 DATABASE_URL' : ''}`,
    );
    print(`  ${result.manifest.files.length} 个文件校验和一致`);
    if (result.mismatchedRows.length) {
      print(`  行数与清单不符的表：${result.mismatchedRows.join('、')}`);
      return 1;
    }
    print('  每张表的行数与清单一致');
    return 0;
  } catch (error) {
    print(`无法恢复：${(error as Error).message}`);
    return 1;
  }
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

/**
 * Exit code: 0 when the storage is consistent at the end (nothing found; or, with --remove,
 * everything found was removed), 1 when something is left for a person to look at (a report that
 * found anything; rows another table still points at; references to objects that are gone).
 * Uploads in flight (pending within the grace period) are reported and never count.
 */
async function sweep(
  deps: { db: Handle['db']; storage: FileStorage },
  options: { remove: boolean; pendingGraceMs?: number },
  print: Print,
) {
  const found = await sweepStorage({ ...deps, references: fileReferences }, options);
  const done = options.remove ? '已删除' : '发现';
  print(`${done} ${found.orphans.length} 个无人引用的存储对象`);
  for (const key of found.orphans) print(`  对象 ${key}`);
  print(`${done} ${found.danglingRows.length - found.keptRows.length} 条指向缺失对象的 files 记录`);
  for (const row of found.danglingRows) print(`  files #${row.id} ${row.key}`);
  if (found.keptRows.length) print(`  其中 ${found.keptRows.length} 条仍被其他表引用，未删除`);
  print(`${done} ${found.interrupted.length} 个中断的上传（进程在上传完成前退出）`);
  for (const p of found.interrupted) print(`  上传 ${p.key}${p.stored ? '（对象已写入）' : '（对象未写入）'}`);
  if (found.inFlight.length) print(`${found.inFlight.length} 个上传正在进行，未检查`);
  if (found.missingReferenced.length) print(`业务表引用了 ${found.missingReferenced.length} 个缺失对象（未改动）`);
  for (const key of found.missingReferenced) print(`  缺失 ${key}`);
  const anything =
    found.orphans.length + found.danglingRows.length + found.interrupted.length + found.missingReferenced.length > 0;
  const left = found.keptRows.length + found.missingReferenced.length > 0;
  return (options.remove ? left : anything) ? 1 : 0;
}
