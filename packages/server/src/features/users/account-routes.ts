import { changeCoins } from '../../core/ledger';
import { releaseAttempt } from '../../core/login-throttle';
import { newUserRow } from '../../core/new-user';
import { hashPassword, verifyPassword } from '../../core/passwords';
import { createSession, readSessionUser } from '../../core/sessions';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import { sendEmailVerification } from './email';
import { presentSessionUser } from './presenter';
import { beginAttempt, finishSignIn, logAttempt, signIn } from './sign-in';
import { takeRegistration, takeVerificationMail } from './throttle';

/** Key-value (a11t) that sets the coins a new account starts with, per app; absent means 0. */
export const SIGNUP_COINS_KEY = 'signup_coins';

/** App-facing account calls: sign-up, own profile, own avatar. */
export default defineRoutes({
  '/api/users/register': {
    message: '注册成功',
    // A resent registration (Idempotency-Key) signs in again: the stored first answer keeps no token.
    replay: (input, ctx) => signIn(ctx, input.phone, input.password, input.app),
    handler: async (input, ctx) => {
      await ctx.survivesFailure((db) => takeRegistration(db, ctx.config.quotas, ctx.ip));
      const taken = () => fail.conflict('该手机号已注册，请直接登录');
      /*
       * Registration tells no more about which phones exist than sign-in does: every registration
       * is counted as a sign-in attempt first (same counters, same 429s whether the phone exists
       * or not); a taken phone costs a password check and stays counted as a failure, so probing
       * phones here is limited exactly like guessing passwords at sign-in. The right password for
       * a taken phone simply signs its owner in.
       */
      const { account, reservation } = await beginAttempt(ctx, input.phone);
      if (account) {
        if (await verifyPassword(account.password_hash, input.password)) {
          return finishSignIn(ctx, input.phone, account, reservation, input.app);
        }
        await logAttempt(ctx, input.phone, account, 'phone_taken');
        throw taken();
      }
      await releaseAttempt(ctx.db, reservation);
      const passwordHash = await hashPassword(input.password);
      const { token, userId } = await ctx.inTransaction(async (tx) => {
        const now = Date.now();
        const row = await tx.db
          .insertInto('users')
          .values(
            newUserRow(
              {
                phone: input.phone,
                password_hash: passwordHash,
                app: input.app,
                channel: input.channel,
                last_login_at: now,
                last_active_at: now,
              },
              now,
            ),
          )
          .onConflict((oc) => oc.column('phone').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!row) throw taken();
        const grant = await tx.db
          .selectFrom('key_values')
          .select('value')
          .where('app', '=', input.app)
          .where('key', '=', SIGNUP_COINS_KEY)
          .executeTakeFirst();
        const coins = Number.parseInt(grant?.value ?? '0', 10);
        if (Number.isSafeInteger(coins) && coins > 0) {
          await changeCoins(tx.db, {
            userId: row.id,
            delta: coins,
            reason: 'register',
            refType: 'user',
            refId: row.id,
          });
        }
        const session = { ip: ctx.ip, userAgent: ctx.userAgent, app: input.app };
        return { token: await createSession(tx.db, row.id, session), userId: row.id };
      });
      ctx.identify({ userId });
      return { token, user: await presentSessionUser(ctx.db, await readSessionUser(ctx.db, userId, input.app)) };
    },
  },

  '/api/users/update/info': {
    message: '资料已更新',
    handler: async (input, ctx) => {
      const user = ctx.user;
      const now = Date.now();
      // A new address counts only once verified: the stored email changes when the link is opened.
      const mail = input.email !== undefined && !(input.email === user.email && user.email_verified === 1);
      // Refused mails (429, with when to retry) change nothing, the nickname included.
      if (mail && input.email) {
        await takeVerificationMail(ctx.db, ctx.config.quotas, { userId: user.id, email: input.email, ip: ctx.ip });
      }
      if (input.nickname !== undefined && input.nickname !== user.nickname) {
        await ctx.db
          .updateTable('users')
          .set({ nickname: input.nickname, updated_at: now })
          .where('id', '=', user.id)
          .execute();
      }
      const emailSent = mail && input.email ? await sendEmailVerification(ctx, user.id, input.email) : false;
      return {
        user: await presentSessionUser(ctx.db, await readSessionUser(ctx.db, user.id, user.session_app)),
        emailSent,
      };
    },
  },

  '/api/users/update/avatar': {
    message: '头像已更新',
    handler: async (_input, ctx) => {
      const user = ctx.user;
      if (!ctx.file) throw fail.badInput('缺少头像文件');
      const now = Date.now();
      // Lock the row first (PostgreSQL), so two uploads at once each release the picture they replaced.
      await ctx.db.updateTable('users').set({ updated_at: now }).where('id', '=', user.id).execute();
      const { avatar: previous } = await ctx.db
        .selectFrom('users')
        .select('avatar')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      await ctx.db.updateTable('users').set({ avatar: ctx.file.url }).where('id', '=', user.id).execute();
      // The old picture goes once this commits, unless something else shows it.
      ctx.releaseFile(previous);
      return { user: await presentSessionUser(ctx.db, { ...user, avatar: ctx.file.url }) };
    },
  },
});
