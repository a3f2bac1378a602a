/** Result codes carried in every API answer's `code` field (docs/architecture.md#the-api-contract). */
export const Code = {
  OK: 200,
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  EXPIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_TYPE: 415,
  /** The password was chosen by someone else (生成账号, an operator's reset): change it first. */
  PASSWORD_CHANGE_REQUIRED: 428,
  TOO_MANY: 429,
  /**
   * Sign-in: the password was right and the account has two-factor sign-in; `data` carries the
   * challenge `/api/users/login/totp` takes with the authenticator's code (endpoints/totp.ts).
   */
  SECOND_FACTOR_REQUIRED: 432,
  /** The operator's role requires two-factor sign-in and they have not enrolled: every admin call answers this until they do. */
  SECOND_FACTOR_ENROLMENT_REQUIRED: 433,
  INTERNAL: 500,
  /** The database (or the disk) is out of reach for now; retry later (an Idempotency-Key makes a write safe to resend). */
  UNAVAILABLE: 503,
} as const;

export type CodeValue = (typeof Code)[keyof typeof Code];

/** Default Chinese message for each code, used when a handler gives none. */
export const codeMessage: Record<CodeValue, string> = {
  200: '成功',
  400: '请求参数有误',
  401: '请先登录',
  402: '登录已过期，请重新登录',
  403: '没有权限执行此操作',
  404: '记录不存在',
  409: '操作冲突',
  413: '文件或请求体过大',
  415: '不支持的文件类型',
  428: '请先修改初始密码：修改密码后才能继续使用',
  429: '尝试次数过多，请稍后再试',
  432: '请输入验证器 App 上的 6 位验证码',
  433: '你的角色要求开启两步验证：请先绑定验证器 App',
  500: '服务器开小差了，请稍后再试',
  503: '服务暂不可用，请稍后重试',
};

/**
 * What a 403 carries when the account is fine but this operator may not do this one thing (a
 * permission of their roles, an app outside their scope): the console keeps the session and says
 * so, where any other 403 ends it (an account blocked or no longer an operator).
 */
export interface Denial {
  denied: 'permission' | 'app';
}
export const isDenial = (data: unknown): data is Denial =>
  typeof data === 'object' && data !== null && 'denied' in data;

/** Codes that end the session on the client (docs/spec-notes.md#8-answers-notices-and-the-session). */
export const sessionEndingCodes: readonly number[] = [401, 402, 403];
