import { grantsOf } from '../../core/grants';
import { releaseAttempt, reserveAttempt, secondFactorKey } from '../../core/login-throttle';
import { verifyPassword } from '../../core/passwords';
import { revokeUserSessions, type SessionUser } from '../../core/sessions';
import { iso } from '../../db/paging';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import {
  enabledFactor,
  enrolmentUri,
  newSecret,
  openTotpSecret,
  recoveryCodesLeft,
  removeFactor,
  renewRecoveryCodes,
  sealTotpSecret,
  spendFactor,
  stepOf,
} from './factor';

type Ctx = RequestContext<SessionUser>;

/** Two-factor sign-in guards the console: apps' users have no use for it. */
function operatorsOnly(user: SessionUser): void {
  if (!user.is_admin) throw fail.badInput('两步验证仅供后台操作员使用');
}

/** The authenticator app lists the account under the site's name (站点配置's title) and the phone. */
async function issuer(ctx: Ctx): Promise<string> {
  const site = await ctx.db.selectFrom('allocation').select('title').executeTakeFirst();
  return site?.title.trim() || 'AppDesk';
}

/**
 * Before the factor is turned off or its recovery codes renewed, the caller proves they hold it (a
 * current code) or the password: a stolen session alone cannot. Counted like sign-in attempts, a
 * code on the second-factor counters, with no exemption for the device (it is the one asking).
 */
async function requireProof(ctx: Ctx, proof: { code?: string; password?: string }): Promise<'code' | 'password'> {
  const user = ctx.user;
  if (!(await enabledFactor(ctx.db, user.id))) throw fail.badInput('尚未开启两步验证');
  const byCode = proof.code !== undefined;
  const key = byCode ? secondFactorKey(user.phone) : user.phone;
  const reservation = await ctx.survivesFailure((db) => reserveAttempt(db, key, ctx.ip));
  let ok: boolean;
  if (byCode) ok = (await spendFactor(ctx.db, ctx.config.secretKeys, user.id, { code: proof.code })) === 'code';
  else {
    const row = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirst();
    ok = row !== undefined && (await verifyPassword(row.password_hash, proof.password ?? ''));
  }
  if (!ok) throw fail.badInput(byCode ? '验证码不正确或已经用过，请输入验证器当前显示的 6 位数字' : '登录密码不正确');
  await releaseAttempt(ctx.db, reservation);
  return byCode ? 'code' : 'password';
}

export default defineRoutes({
  '/api/totp/fetch/status': {
    handler: async (_input, ctx) => {
      const user = ctx.user;
      const factor = await enabledFactor(ctx.db, user.id);
      return {
        enabled: factor !== null,
        enabledAt: factor?.enabled_at ? iso(factor.enabled_at) : null,
        required: user.is_admin === 1 && (await grantsOf(ctx.db, user.id)).requireTotp,
        available: ctx.config.secretKeys !== undefined,
        recoveryCodesLeft: factor ? await recoveryCodesLeft(ctx.db, user.id) : 0,
      };
    },
  },

  '/api/totp/make': {
    message: '请用验证器 App 扫描二维码，再输入它显示的 6 位验证码',
    handler: async (_input, ctx) => {
      const user = ctx.user;
      operatorsOnly(user);
      const keys = ctx.config.secretKeys;
      // As 应用管理 does: no key, no secret kept (docs/apps.md#secrets); never a plain-text fallback.
      if (!keys) {
        throw fail.badInput('服务器未配置密钥加密的主密钥，无法保存验证器密钥，暂不能开启两步验证：请联系部署人员配置');
      }
      if (await enabledFactor(ctx.db, user.id)) {
        throw fail.conflict('两步验证已经开启：如需更换验证器，请先关闭再重新绑定');
      }
      const secret = newSecret();
      const now = Date.now();
      const sealed = sealTotpSecret(keys, user.id, secret);
      // A new enrolment replaces one begun and never confirmed (a QR code scanned on a lost phone).
      await ctx.db
        .insertInto('totp_factors')
        .values({
          user_id: user.id,
          sealed_secret: sealed,
          enabled_at: null,
          last_step: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .column('user_id')
            .doUpdateSet({ sealed_secret: sealed, last_step: null, created_at: now, updated_at: now })
            .where('totp_factors.enabled_at', 'is', null),
        )
        .execute();
      return { secret, uri: enrolmentUri(secret, await issuer(ctx), user.phone) };
    },
  },

  '/api/totp/confirm': {
    message: '两步验证已开启，其他设备上的登录已退出',
    handler: async (input, ctx) => {
      const user = ctx.user;
      operatorsOnly(user);
      const row = await ctx.db
        .selectFrom('totp_factors')
        .select(['sealed_secret', 'enabled_at'])
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!row) throw fail.badInput('请先开始绑定：用验证器 App 扫描二维码后再输入验证码');
      if (row.enabled_at !== null) throw fail.conflict('两步验证已经开启');
      const step = stepOf(openTotpSecret(ctx.config.secretKeys, user.id, row.sealed_secret), input.code);
      if (step === null) {
        throw fail.badInput('验证码不正确：请确认手机时间准确，并输入验证器当前显示的 6 位数字');
      }
      return ctx.inTransaction(async (tx) => {
        const now = Date.now();
        const enabled = await tx.db
          .updateTable('totp_factors')
          .set({ enabled_at: now, last_step: step, updated_at: now })
          .where('user_id', '=', user.id)
          .where('enabled_at', 'is', null)
          .executeTakeFirst();
        if (Number(enabled.numUpdatedRows) !== 1) throw fail.conflict('两步验证已经开启');
        const recoveryCodes = await renewRecoveryCodes(tx.db, user.id);
        // Sessions opened with the password alone end: from now on a sign-in takes both.
        await revokeUserSessions(tx.db, user.id, ctx.sessionId ?? undefined);
        await tx.audit({
          targetId: user.id,
          before: { twoFactor: false },
          after: { twoFactor: true, recoveryCodes: recoveryCodes.length },
        });
        return { recoveryCodes };
      });
    },
  },

  '/api/totp/disable': {
    message: '两步验证已关闭',
    handler: async (input, ctx) => {
      const proof = await requireProof(ctx, input);
      await ctx.inTransaction(async (tx) => {
        await removeFactor(tx.db, ctx.user.id);
        await tx.audit({ targetId: ctx.user.id, before: { twoFactor: true }, after: { twoFactor: false, proof } });
      });
      return null;
    },
  },

  '/api/totp/update/recovery': {
    message: '已生成新的恢复码，旧的已全部作废',
    handler: async (input, ctx) => {
      const proof = await requireProof(ctx, input);
      return ctx.inTransaction(async (tx) => {
        const recoveryCodes = await renewRecoveryCodes(tx.db, ctx.user.id);
        await tx.audit({ targetId: ctx.user.id, after: { recoveryCodes: recoveryCodes.length, proof } });
        return { recoveryCodes };
      });
    },
  },
});
