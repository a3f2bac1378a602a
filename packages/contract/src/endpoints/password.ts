import { z } from 'zod';
import { passwordDigest, plainPassword } from '../fields';

/**
 * An own password change (/api/users/update/password): both passwords as digests, and for an
 * operator the new one as typed too, for the operator rule (rules/users.ts, docs/permissions.md).
 */
export const passwordChangeInput = z.object({
  old: passwordDigest.meta({ title: '原密码' }),
  refresh: passwordDigest.meta({ title: '新密码' }),
  plainPassword: plainPassword.optional(),
});

/** How its operation-log row reads (the user target's fields): how it came about, what was checked. */
export const passwordChangeWords = {
  passwordChange: {
    label: '修改方式',
    values: [
      { value: 'own', label: '本人修改密码' },
      { value: 'initial', label: '首次登录修改初始密码' },
    ],
  },
  passwordRule: {
    label: '密码规则',
    values: [{ value: 'operator', label: '已按操作员密码规则检查' }],
  },
};
