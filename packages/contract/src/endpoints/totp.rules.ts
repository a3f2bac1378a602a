/**
 * Two-factor sign-in's input shapes (zod-free, for the sign-in page too): a code as an
 * authenticator shows it, a recovery code as it was handed out (`abcd-efgh-jkmn`; any case,
 * spaces and dashes allowed).
 */
export const totpRules = {
  code: { pattern: /^\d{6}$/, message: '验证码为 6 位数字' },
  recoveryCode: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9 -]{10,22}[A-Za-z0-9]$/,
    message: '恢复码格式不正确，应形如 abcd-efgh-jkmn',
  },
} as const;
