import { totpDisableAudit } from '@appdesk/contract/endpoints/totp';
import { maskPhone } from '@appdesk/contract/format';
import { writeAudit } from '../core/audit';
import { enrolSuperAdmin } from '../core/operators';
import { initialPassword } from '../core/passwords';
import { revokeUserSessions } from '../core/sessions';
import type { Db } from '../db/index';
import { resetSecondFactor } from '../features/totp/public';

/**
 * What the operation log shows as the address of a change made from the command line (there is
 * no signed-in operator: the actor is empty, and `after.via` says so too).
 */
export const CLI_ADDRESS = '命令行';
const VIA = 'command-line';

type Print = (line: string) => void;

async function findAccount(db: Db, who: string) {
  const byId = /^\d{1,9}$/.test(who) && !/^1\d{10}$/.test(who);
  const query = db.selectFrom('users').select(['id', 'phone', 'nickname', 'is_admin', 'status']);
  return byId
    ? query.where('id', '=', Number(who)).executeTakeFirst()
    : query.where('phone', '=', who).executeTakeFirst();
}

/** `admin list`: every administrator, phones masked. */
export async function listAdmins(db: Db, print: Print): Promise<number> {
  const admins = await db
    .selectFrom('users')
    .select(['id', 'phone', 'nickname', 'status', 'created_at'])
    .where('is_admin', '=', 1)
    .orderBy('id')
    .execute();
  if (admins.length === 0) {
    print('没有管理员账号：打开站点完成初始化，或用 npm run admin -- grant <手机号> 指定一位');
    return 0;
  }
  print(`共 ${admins.length} 位管理员：`);
  for (const a of admins) {
    const state = a.status === 'blocked' ? '（已封禁）' : '';
    print(`  #${a.id}  ${maskPhone(a.phone)}  ${a.nickname || '（未设置昵称）'}${state}`);
  }
  return 0;
}

/** `admin grant <phone|id>`: makes the account an administrator, recorded in the operation log. */
export async function grantAdmin(db: Db, who: string, print: Print): Promise<number> {
  const account = await findAccount(db, who);
  if (!account) {
    print(`找不到账号“${who}”（请给出手机号或用户 ID）`);
    return 1;
  }
  await db.transaction().execute(async (trx) => {
    await enrolSuperAdmin(trx, account.id);
    await writeAudit(trx, {
      actorId: null,
      action: 'users.update.admin',
      targetType: 'user',
      targetId: account.id,
      before: { isAdmin: account.is_admin === 1 },
      after: { isAdmin: true, via: VIA },
      ip: CLI_ADDRESS,
    });
  });
  print(
    account.is_admin === 1
      ? `#${account.id} ${maskPhone(account.phone)} 已经是管理员（已记入操作日志）`
      : `已把 #${account.id} ${maskPhone(account.phone)} 设为管理员（已记入操作日志）`,
  );
  if (account.status === 'blocked') print('注意：该账号处于封禁状态，需在后台解除封禁后才能登录');
  return 0;
}

/**
 * `admin reset-password <phone|id>`: a new random initial password, printed once; every session
 * of the account ends and it must choose a new password at its next sign-in.
 */
export async function resetAdminPassword(db: Db, who: string, print: Print): Promise<number> {
  const account = await findAccount(db, who);
  if (!account) {
    print(`找不到账号“${who}”（请给出手机号或用户 ID）`);
    return 1;
  }
  if (account.is_admin !== 1) {
    print(`#${account.id} 不是管理员：普通用户的密码请在后台“用户管理”中重置`);
    return 1;
  }
  const { password, hash } = await initialPassword();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: hash, must_change_password: 1, updated_at: Date.now() })
      .where('id', '=', account.id)
      .execute();
    await revokeUserSessions(trx, account.id);
    await writeAudit(trx, {
      actorId: null,
      action: 'users.reset.password',
      targetType: 'user',
      targetId: account.id,
      after: { mustChangePassword: true, via: VIA },
      ip: CLI_ADDRESS,
    });
  });
  print(`已重置 #${account.id} ${maskPhone(account.phone)} 的密码，新的初始密码（只显示这一次）：`);
  print(`  ${password}`);
  print('该账号的全部登录已失效，下次登录须先修改密码（已记入操作日志）');
  return 0;
}

/**
 * `admin reset-totp <phone|id>`: removes an account's second factor (a lost phone and no recovery
 * code left): it signs in with its password alone again, and enrols anew if a role of it requires
 * two-factor sign-in. Recorded in the operation log as 关闭两步验证 from the command line.
 */
export async function resetTotp(db: Db, who: string, print: Print): Promise<number> {
  const account = await findAccount(db, who);
  if (!account) {
    print(`找不到账号“${who}”（请给出手机号或用户 ID）`);
    return 1;
  }
  const decl = totpDisableAudit;
  const removed = await db.transaction().execute(async (trx) => {
    const had = await resetSecondFactor(trx, account.id);
    if (had) {
      await writeAudit(trx, {
        actorId: null,
        action: decl.action,
        targetType: decl.target.type,
        targetId: account.id,
        before: { twoFactor: true },
        after: { twoFactor: false, via: VIA },
        ip: CLI_ADDRESS,
      });
    }
    return had;
  });
  const named = `#${account.id} ${maskPhone(account.phone)}`;
  print(
    removed
      ? `已重置 ${named} 的两步验证：下次登录只需密码；如其角色要求两步验证，登录后须重新绑定（已记入操作日志）`
      : `${named} 没有开启两步验证，无需重置`,
  );
  return 0;
}
