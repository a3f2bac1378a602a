import { createHash } from 'node:crypto';
import { operatorPasswordProblem } from '@appdesk/contract/rules/users';
import { fail } from '../http/errors';

/**
 * The operator password rule (等保二级, docs/permissions.md#等保二级口令与会话) on a password an
 * operator chooses. Passwords travel as a SHA-256 digest, which says nothing of their strength, so
 * an operator's client also sends the plain text (`plainPassword`) in the same HTTPS request: it
 * must be the text behind the digest, and it must meet the rule. It is checked here and dropped:
 * the stored hash is still argon2id over the digest, and no log or operation-log row holds it.
 * Accounts that are not operators (the apps' users) are not checked, whatever they send.
 *
 * Answers whether the rule was checked (an operator's password), for the operation-log row.
 */
export function checkChosenPassword(
  account: { is_admin: number; phone: string },
  digest: string,
  plain: string | undefined,
): boolean {
  if (account.is_admin !== 1) return false;
  if (plain === undefined) {
    throw fail.badInput('操作员设置密码时需同时提交新密码原文（plainPassword），以检查密码规则；请刷新页面后重试');
  }
  if (createHash('sha256').update(plain, 'utf8').digest('hex') !== digest) {
    throw fail.badInput('新密码原文与新密码摘要不一致，请重新输入新密码');
  }
  const problem = operatorPasswordProblem(plain, account.phone);
  if (problem) throw fail.badInput(problem);
  return true;
}
