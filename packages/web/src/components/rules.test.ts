import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { phoneFilter } from './rules';

describe('phoneFilter: what a list sends for its phone search', () => {
  it('sends a whole mobile number, and a generated 100… account (the contract accepts both)', () => {
    expect(phoneFilter('13800138000')).toBe('13800138000');
    expect(phoneFilter('10012345678')).toBe('10012345678');
  });

  it('drops the spaces and dashes a pasted number carries', () => {
    expect(phoneFilter(' 138 0013 8000 ')).toBe('13800138000');
    expect(phoneFilter('138-0013-8000')).toBe('13800138000');
  });

  it('sends nothing for a part of a number, another digit count, letters or an empty box', () => {
    for (const value of ['1380013', '138001380001', '12800138000', '1380013800a', '', undefined]) {
      expect(phoneFilter(value)).toBeUndefined();
    }
  });
});

it("no page carries its own phone pattern (the contract's phonePattern, through phoneFilter or the rules)", () => {
  const src = new URL('../', import.meta.url);
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'),
  );
  const copies = files.filter((f) => readFileSync(new URL(f, src), 'utf8').includes('1[3-9]'));
  expect(copies).toEqual([]);
});
