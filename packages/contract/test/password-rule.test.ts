import { describe, expect, it } from 'vitest';
import { operatorPasswordChecks, operatorPasswordProblem, operatorPasswordSummary } from '../src/endpoints/users.rules';

describe('the operator password rule (等保二级)', () => {
  it('accepts 10 to 64 characters of 3 classes or more without the own phone', () => {
    for (const ok of ['Admin12345', 'lan-desk-2026', 'UPPER_lower_x', 'Ab1!Ab1!Ab', `${'Aa1'.repeat(21)}x`]) {
      expect(operatorPasswordProblem(ok, '13800000000')).toBeNull();
    }
  });

  it('says exactly what is missing, every line at once', () => {
    expect(operatorPasswordProblem('abc')).toBe(
      '密码不符合操作员密码规则：长度不足：至少 10 位，现在 3 位；字符种类不足：现在只有小写字母，还需加入大写字母、数字、符号中的 2 类',
    );
    expect(operatorPasswordProblem('Ab13800000000', '13800000000')).toBe(
      '密码不符合操作员密码规则：不能包含本人手机号',
    );
    expect(operatorPasswordProblem('ABCDEFGHIJK!')).toBe(
      '密码不符合操作员密码规则：字符种类不足：现在只有大写字母、符号，还需加入小写字母、数字中的 1 类',
    );
    expect(operatorPasswordProblem('')).toContain('现在没有任何字符');
    expect(operatorPasswordProblem(`Aa1${'x'.repeat(62)}`)).toBe(
      '密码不符合操作员密码规则：长度超出：最多 64 位，现在 65 位',
    );
  });

  it('counts characters, not UTF-16 units, and anything but letters and digits as a symbol', () => {
    expect(operatorPasswordProblem('密码Abc12345')).toBeNull();
    expect(operatorPasswordProblem('😀😀😀😀😀Ab12')).toBe('密码不符合操作员密码规则：长度不足：至少 10 位，现在 9 位');
  });

  it('lists each line for the console, met or not, and states the whole rule in one sentence', () => {
    expect(operatorPasswordChecks('Admin12345', '13800000000').map((c) => [c.label, c.ok])).toEqual([
      ['10 到 64 位', true],
      ['大写字母、小写字母、数字、符号中至少 3 类', true],
      ['不包含本人手机号', true],
    ]);
    expect(operatorPasswordSummary).toBe(
      '至少 10 位，包含大写字母、小写字母、数字、符号中的至少 3 类，且不包含本人手机号',
    );
  });
});
