import { DEFAULT_APP } from '@appdesk/contract/constants';
import { checkChosenPassword } from '../../core/operator-password';
import { hashPassword, verifyPassword } from '../../core/passwords';
import { hashToken, revokeSession, revokeUserSessions } from '../../core/sessions';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import { presentSessionUser } from './presenter';
import { signInSecondStep } from './second-step';
import { signIn } from './sign-in';

export default defineRoutes({
  '/api/users/login': {
    message: '登录成功',
    handler: (input, ctx) => signIn(ctx, input.phone, input.password, input.app ?? DEFAULT_APP),
  },

  '/api/users/login/totp': {
    message: '登录成功',
    handler: (input, ctx) => signInSecondStep(ctx, input),
  },

  '/api/users/logout': {
    message: '已退出登录',
    handler: async (_input, ctx) => {
      if (ctx.sessionId !== null) await revokeSession(ctx.db, ctx.sessionId);
      return null;
    },
  },

  '/api/users/fetch/info': {
    handler: async (input, ctx) => ({ user: await presentSessionUser(ctx.db, ctx.user, input.app) }),
  },

  '/api/users/update/password': {
    message: '密码已修改，其他设备已退出登录',
    handler: async (input, ctx) => {
      const user = ctx.user;
      if (input.old === input.refresh) throw fail.badInput('新密码不能与原密码相同');
      // An operator's new password meets the operator rule (checked on its plain text, then dropped).
      const ruled = checkChosenPassword(user, input.refresh, input.plainPassword);
      const row = await ctx.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (!(await verifyPassword(row.password_hash, input.old))) throw fail.badInput('原密码不正确');
      const passwordHash = await hashPassword(input.refresh);
      await ctx.inTransaction(async (tx) => {
        await tx.db
          .updateTable('users')
          .set({ password_hash: passwordHash, must_change_password: 0, updated_at: Date.now() })
          .where('id', '=', user.id)
          .execute();
        const revoked = await revokeUserSessions(tx.db, user.id, ctx.sessionId ?? undefined);
        // In words: how it came about, what was checked, how many other sessions ended.
        const initial = user.must_change_password === 1;
        await tx.audit({
          targetId: user.id,
          ...(initial ? { before: { mustChangePassword: true } } : {}),
          after: {
            passwordChange: initial ? 'initial' : 'own',
            ...(initial ? { mustChangePassword: false } : {}),
            ...(ruled ? { passwordRule: 'operator' } : {}),
            revoked,
          },
        });
      });
      return null;
    },
  },

  '/api/users/validate/email': {
    message: '邮箱验证成功',
    transaction: true,
    handler: async (input, ctx) => {
      const tokenHash = hashToken(input.token);
      const row = await ctx.db
        .selectFrom('email_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) throw fail.notFound('验证链接无效');
      if (row.used_at !== null) throw fail.conflict('该验证链接已经使用过');
      if (row.expires_at <= Date.now()) throw fail.badInput('验证链接已过期，请重新发送验证邮件');
      const now = Date.now();
      await ctx.db.updateTable('email_tokens').set({ used_at: now }).where('id', '=', row.id).execute();
      await ctx.db
        .updateTable('users')
        .set({ email: row.email, email_verified: 1, updated_at: now })
        .where('id', '=', row.user_id)
        .execute();
      return { email: row.email };
    },
  },
});
