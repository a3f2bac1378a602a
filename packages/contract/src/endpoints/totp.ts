import { z } from 'zod';
import { type AuditDecl, auditTarget, endpoint } from '../endpoint';
import { empty, isoTime, passwordDigest } from '../fields';
import { totpRules } from './totp.rules';
import { currentUser, userTarget } from './users';

/*
 * Two-factor sign-in (两步验证) for operators: a TOTP authenticator (RFC 6238, 6 digits, 30 s)
 * enrolled in 个人中心, with ten one-time recovery codes. An account with it enabled signs in in
 * two steps: `/api/users/login` answers code 432 with a challenge, `/api/users/login/totp` the
 * session. An operator whose role requires it and who has not enrolled gets 433 on every admin
 * call until they do (docs/permissions.md#两步验证).
 */
/**
 * The operation-log rows are about the operator's account (type `user`, like userTarget), so the
 * log names whose factor changed and 用户手机号 finds them; these are the fields they record (and
 * which factor an operator's sign-in, 登录后台, took).
 */
const target = auditTarget('user', userTarget.label, userTarget.page, {
  twoFactor: '两步验证',
  recoveryCodes: '恢复码个数',
  proof: {
    label: '身份确认',
    values: [
      { value: 'code', label: '验证码' },
      { value: 'password', label: '密码' },
    ],
  },
  secondFactor: {
    label: '两步验证',
    values: [
      { value: 'code', label: '验证码' },
      { value: 'recovery', label: '恢复码' },
    ],
  },
  via: userTarget.fields.via,
});
/** Turning the factor off; the command line's reset (`npm run admin -- reset-totp`) records it too. */
export const totpDisableAudit: AuditDecl = { action: 'totp.disable', label: '关闭两步验证', target };

/** How many one-time recovery codes an enrolment (or a regeneration) hands out. */
export const RECOVERY_CODE_COUNT = 10;
/** How long the challenge of a sign-in's first step stays good. */
export const TOTP_CHALLENGE_MS = 5 * 60 * 1000;

export const totpCode = z
  .string({ error: '验证码必须是字符串' })
  .regex(totpRules.code.pattern, { error: totpRules.code.message })
  .meta({ title: '验证码', description: '验证器 App 当前显示的 6 位数字' });
/** `abcd-efgh-jkmn` as shown; spaces and dashes are ignored, letters in either case. */
export const recoveryCode = z
  .string({ error: '恢复码必须是字符串' })
  .regex(totpRules.recoveryCode.pattern, { error: totpRules.recoveryCode.message })
  .meta({ title: '恢复码', description: '开启两步验证时保存的一次性恢复码' });
export const totpChallenge = z
  .string({ error: '验证凭据必须是字符串' })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: '验证凭据无效，请重新登录' })
  .meta({ title: '验证凭据', description: '登录第一步（code 432）答复中的 challenge' });

/** The data of the 432 answer to a right password: what the second step sends back. */
export const secondFactorChallenge = z
  .object({
    challenge: totpChallenge,
    expiresAt: isoTime.meta({ title: '凭据过期时间' }),
  })
  .meta({ title: '两步验证凭据' });
export type SecondFactorChallenge = z.infer<typeof secondFactorChallenge>;

/** Proof that the caller holds the factor (or the password) before it is turned off or renewed. */
const proof = z
  .object({
    code: totpCode.optional(),
    password: passwordDigest.optional().meta({ title: '密码', description: '登录密码（SHA-256 摘要）' }),
  })
  .refine((p) => p.code !== undefined || p.password !== undefined, { error: '请输入验证码或登录密码' });

const recoveryCodes = z
  .array(z.string())
  .meta({ title: '恢复码', description: `${RECOVERY_CODE_COUNT} 个一次性恢复码，只在此答复中出现一次` });

export const totpStatus = z
  .object({
    enabled: z.boolean().meta({ title: '已开启' }),
    enabledAt: isoTime.nullable().meta({ title: '开启时间' }),
    required: z.boolean().meta({ title: '角色要求', description: '所属角色要求两步验证' }),
    available: z.boolean().meta({
      title: '可以开启',
      description: '服务器配置了密钥加密的主密钥；未配置时无法保存验证器密钥',
    }),
    recoveryCodesLeft: z.number().int().meta({ title: '剩余恢复码' }),
  })
  .meta({ title: '两步验证状态' });
export type TotpStatus = z.infer<typeof totpStatus>;

export const totpEndpoints = {
  '/api/users/login/totp': endpoint({
    access: 'public',
    summary: '登录第二步：提交验证器的 6 位验证码或一次性恢复码，返回令牌（与登录相同）',
    input: z
      .object({ challenge: totpChallenge, code: totpCode.optional(), recoveryCode: recoveryCode.optional() })
      .refine((v) => v.code !== undefined || v.recoveryCode !== undefined, { error: '请输入验证码或恢复码' }),
    output: z.object({ token: z.string(), user: currentUser }),
    example: { challenge: 'a-challenge-that-was-never-issued', code: '123456' },
  }),
  '/api/totp/fetch/status': endpoint({
    access: 'user',
    summary: '自己的两步验证状态（是否开启、角色是否要求、剩余恢复码）',
    input: empty,
    output: totpStatus,
  }),
  '/api/totp/make': endpoint({
    access: 'user',
    summary: '开始绑定两步验证（操作员）：生成验证器密钥，答复 otpauth:// 地址（用于二维码）与密钥；确认验证码后才生效',
    input: empty,
    output: z.object({
      secret: z.string().meta({ title: '密钥', description: 'Base32，无法扫码时手动输入' }),
      uri: z.string().meta({ title: '绑定地址', description: 'otpauth://totp/…，显示为二维码' }),
    }),
  }),
  '/api/totp/confirm': endpoint({
    access: 'user',
    summary: '确认绑定：提交验证器显示的验证码，开启两步验证并答复恢复码（只显示这一次）',
    input: z.object({ code: totpCode }),
    output: z.object({ recoveryCodes }),
    example: { code: '123456' },
    audit: { action: 'totp.enable', label: '开启两步验证', target },
  }),
  '/api/totp/disable': endpoint({
    access: 'user',
    summary: '关闭两步验证（需当前验证码或登录密码）；角色要求时，关闭后须重新绑定才能使用后台',
    input: proof,
    output: z.null(),
    example: { code: '123456' },
    audit: totpDisableAudit,
  }),
  '/api/totp/update/recovery': endpoint({
    access: 'user',
    summary: '重新生成恢复码（需当前验证码或登录密码）：旧的全部作废，新的只显示这一次',
    input: proof,
    output: z.object({ recoveryCodes }),
    example: { code: '123456' },
    audit: { action: 'totp.recovery', label: '重新生成恢复码', target },
  }),
};

export default totpEndpoints;
type TotpEndpoints = typeof totpEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends TotpEndpoints {}
}
