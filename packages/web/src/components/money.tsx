import { fenInWords, yuanTextToFen } from '@appdesk/contract/format';
import type { Rule } from 'antd/es/form';

/** A yuan amount box's rule: at most two decimals, 0.01 – 1,000,000 yuan (or empty when optional). */
export const yuanRule = (label: string, required: boolean): Rule => ({
  validator: (_: unknown, value: string | undefined) => {
    if (!value?.trim()) return required ? Promise.reject(new Error(`请输入${label}`)) : Promise.resolve();
    const fen = yuanTextToFen(value);
    if (fen === null) return Promise.reject(new Error(`${label}应为最多两位小数的金额，且不超过 1,000,000 元`));
    if (required && fen === 0) return Promise.reject(new Error(`${label}必须大于 0`));
    return Promise.resolve();
  },
});

/** The amount typed in yuan, in upper-case Chinese money beneath the box. */
export function InWords({ text }: { text: string | undefined }) {
  const fen = yuanTextToFen(text ?? '');
  return fen === null ? null : <span className="list-muted">{fenInWords(fen)}</span>;
}
