import type { CurrentUser } from '@appdesk/contract/endpoints/users';
import { secondFactorKey } from '../../core/login-throttle';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { checkSecondFactor, closeChallenge, findChallenge } from '../totp/public';
import { beginAttempt, finishSignIn, logAttempt } from './sign-in';

/**
 * The second step of a two-factor sign-in (`/api/users/login/totp`): the challenge of the first
 * step and a code of the account's authenticator or one of its recovery codes. Counted like
 * passwords on counters of its own (10 wrong codes from one address lock it for 15 minutes),
 * written to the 登录日志, and on success answered exactly as a sign-in is (a session of the app
 * the first step named).
 */
export async function signInSecondStep(
  ctx: RequestContext,
  input: { challenge: string; code?: string; recoveryCode?: string },
): Promise<{ token: string; user: CurrentUser }> {
  const held = await findChallenge(ctx.db, input.challenge);
  if (!held) throw fail.unauthenticated('验证已过期，请重新输入手机号和密码登录');
  const user = await ctx.db.selectFrom('users').select('phone').where('id', '=', held.userId).executeTakeFirst();
  if (!user) throw fail.unauthenticated('验证已过期，请重新输入手机号和密码登录');
  const { account, reservation } = await beginAttempt(ctx, user.phone, secondFactorKey(user.phone));
  if (!account) throw fail.unauthenticated('验证已过期，请重新输入手机号和密码登录');
  // A code is good once, a recovery code once: the check spends what it accepts.
  const given = input.code !== undefined ? { code: input.code } : { recoveryCode: input.recoveryCode };
  const check = await checkSecondFactor(ctx.db, ctx.config.secretKeys, account.id, given);
  if (check === 'wrong' || check === 'reused') {
    await logAttempt(ctx, user.phone, account, 'wrong_code');
    throw fail.unauthenticated(
      check === 'reused'
        ? '该验证码已经用过，请等验证器显示下一个验证码'
        : input.code !== undefined
          ? '验证码不正确，请输入验证器当前显示的 6 位数字'
          : '恢复码不正确或已经用过',
    );
  }
  await closeChallenge(ctx.db, held.id);
  return finishSignIn(ctx, user.phone, account, reservation, held.app, check);
}
