import {
  type FieldRule,
  rules as fieldRules,
  integerMessages,
  phonePattern,
  textMessages,
} from '@appdesk/contract/rules';
import { operatorPasswordProblem } from '@appdesk/contract/rules/users';
import type { Rule } from 'antd/es/form';

/**
 * antd Form rules built from the contract's field rules, so the browser refuses exactly what the
 * server would, in the same words, before sending.
 */
export function formRules(rule: FieldRule, options: { required?: boolean } = {}): Rule[] {
  if (rule.kind === 'text') {
    const messages = textMessages(rule);
    const required = options.required ?? rule.min > 0;
    return [
      ...(required ? [{ required: true, whitespace: true, message: messages.required }] : []),
      { max: rule.max, message: messages.max },
      ...(rule.pattern ? [{ pattern: rule.pattern, message: messages.pattern }] : []),
    ];
  }
  const number = integerMessages(rule);
  return [
    ...(options.required !== false ? [{ required: true, message: number.required }] : []),
    {
      validator: (_: unknown, value: number | null | undefined) => {
        if (value === null || value === undefined) return Promise.resolve();
        if (!Number.isInteger(value)) return Promise.reject(new Error(number.integer));
        if (value < rule.min) return Promise.reject(new Error(number.min));
        if (value > rule.max) return Promise.reject(new Error(number.max));
        if (rule.nonZero && value === 0) return Promise.reject(new Error(number.nonZero));
        return Promise.resolve();
      },
    },
  ];
}

/** Input props of a rule: the length limit of a text box, the bounds of a number box. */
export function inputLimits(rule: FieldRule) {
  return rule.kind === 'text' ? { maxLength: rule.max } : { min: rule.min, max: rule.max };
}

export { fieldRules as rules };

/** antd Form rules of a required phone field. */
export const phoneRules: Rule[] = [
  { required: true, message: '请输入手机号' },
  { pattern: phonePattern, message: textMessages(fieldRules.phone).pattern },
];

/** Browser-side strength check (docs/architecture.md#identity): at least 8 characters, letters and digits. */
export function passwordProblem(password: string): string | null {
  if (password.length < 8) return '密码至少 8 位';
  if (password.length > 64) return '密码最多 64 位';
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return '密码需同时包含字母和数字';
  return null;
}

/** antd Form validator for a new password. */
export const strongPasswordRule = {
  validator: (_: unknown, value: string | undefined) => {
    const problem = value ? passwordProblem(value) : null;
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
};

/**
 * antd Form validator for an operator's new password (等保二级): the contract's operator rule, in the
 * server's words. `phone` reads the account's phone when the form validates (the setup form's own field).
 */
export function operatorPasswordFormRule(phone: () => string | null | undefined) {
  return {
    validator: (_: unknown, value: string | undefined) => {
      const problem = value ? operatorPasswordProblem(value, phone()) : null;
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  };
}

/**
 * What a list's phone filter sends: the whole phone (spaces and dashes pasted with it dropped) when
 * the contract accepts it, generated 100… accounts included, else nothing (lists match whole phones).
 */
export function phoneFilter(value: string | undefined): string | undefined {
  const phone = value?.replace(/[\s-]/g, '');
  return phone && phonePattern.test(phone) ? phone : undefined;
}
