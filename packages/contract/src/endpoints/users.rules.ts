/**
 * The password rule for operators (等保 2.0 二级, docs/permissions.md#等保二级口令与会话): the server
 * checks it on the plain text an operator's password change sends beside the digest
 * (`plainPassword`), and the console shows the same checks live while the password is typed.
 * Zod-free, so the light pages (sign-in, setup) import it as @appdesk/contract/rules/users.
 */

export const operatorPasswordRule = {
  minLength: 10,
  maxLength: 64,
  /** Of the four classes below, at least this many must appear. */
  minClasses: 3,
} as const;

/** The character classes, in the order the messages name them; anything else is a symbol. */
const classes = [
  { key: 'upper', label: '大写字母', test: (c: string) => c >= 'A' && c <= 'Z' },
  { key: 'lower', label: '小写字母', test: (c: string) => c >= 'a' && c <= 'z' },
  { key: 'digit', label: '数字', test: (c: string) => c >= '0' && c <= '9' },
  { key: 'symbol', label: '符号', test: (c: string) => !/[A-Za-z0-9]/.test(c) },
] as const;

/** One line of the rule, as the console lists it: met or not, and what exactly is missing. */
export interface PasswordCheck {
  key: 'length' | 'classes' | 'phone';
  /** The requirement itself (shown in the list). */
  label: string;
  ok: boolean;
  /** What is missing, in words (empty when met). */
  missing: string;
}

const { minLength, maxLength, minClasses } = operatorPasswordRule;

/** The rule in one sentence (README, the form's hint). */
export const operatorPasswordSummary = `至少 ${minLength} 位，包含大写字母、小写字母、数字、符号中的至少 ${minClasses} 类，且不包含本人手机号`;

/** Every line of the rule for `password` of the account whose phone is `phone` (unknown: not checked). */
export function operatorPasswordChecks(password: string, phone?: string | null): PasswordCheck[] {
  const chars = Array.from(password);
  const present = classes.filter((k) => chars.some((c) => k.test(c)));
  const absent = classes.filter((k) => !present.includes(k));
  const short = chars.length < minLength;
  const long = chars.length > maxLength;
  const fewer = minClasses - present.length;
  const hasPhone = Boolean(phone) && password.includes(phone as string);
  return [
    {
      key: 'length',
      label: `${minLength} 到 ${maxLength} 位`,
      ok: !short && !long,
      missing: short
        ? `长度不足：至少 ${minLength} 位，现在 ${chars.length} 位`
        : long
          ? `长度超出：最多 ${maxLength} 位，现在 ${chars.length} 位`
          : '',
    },
    {
      key: 'classes',
      label: `大写字母、小写字母、数字、符号中至少 ${minClasses} 类`,
      ok: fewer <= 0,
      missing:
        fewer > 0
          ? `字符种类不足：${present.length ? `现在只有${present.map((k) => k.label).join('、')}` : '现在没有任何字符'}，还需加入${absent.map((k) => k.label).join('、')}中的 ${fewer} 类`
          : '',
    },
    {
      key: 'phone',
      label: '不包含本人手机号',
      ok: !hasPhone,
      missing: hasPhone ? '不能包含本人手机号' : '',
    },
  ];
}

/** Why `password` breaks the operator rule, as one Chinese sentence; null when it meets it. */
export function operatorPasswordProblem(password: string, phone?: string | null): string | null {
  const missing = operatorPasswordChecks(password, phone)
    .filter((check) => !check.ok)
    .map((check) => check.missing);
  return missing.length ? `密码不符合操作员密码规则：${missing.join('；')}` : null;
}
