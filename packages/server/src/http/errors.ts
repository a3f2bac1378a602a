import { Code, type CodeValue, codeMessage, type Denial } from '@appdesk/contract/codes';

/**
 * A failure the client should see: answered as HTTP 200 with this code and Chinese message, and
 * `data` when the refusal carries what the client needs next (sign-in's second-factor challenge).
 */
export class ApiError extends Error {
  constructor(
    readonly code: CodeValue,
    message?: string,
    readonly data?: unknown,
  ) {
    super(message ?? codeMessage[code]);
  }
}

export const fail = {
  badInput: (message: string) => new ApiError(Code.BAD_INPUT, message),
  unauthenticated: (message?: string) => new ApiError(Code.UNAUTHENTICATED, message),
  expired: (message?: string) => new ApiError(Code.EXPIRED, message),
  forbidden: (message?: string) => new ApiError(Code.FORBIDDEN, message),
  /** 403 for one operator's missing permission or app (the account itself is fine: Denial in codes.ts). */
  denied: (message: string, denied: Denial['denied']) => new ApiError(Code.FORBIDDEN, message, { denied }),
  notFound: (message?: string) => new ApiError(Code.NOT_FOUND, message),
  conflict: (message: string) => new ApiError(Code.CONFLICT, message),
  tooLarge: (message?: string) => new ApiError(Code.TOO_LARGE, message),
  unsupportedType: (message?: string) => new ApiError(Code.UNSUPPORTED_TYPE, message),
  tooMany: (message: string) => new ApiError(Code.TOO_MANY, message),
  passwordChangeRequired: () => new ApiError(Code.PASSWORD_CHANGE_REQUIRED),
};
