import { describe, expect, it } from 'vitest';
import { changedFields } from './useEditor';

describe('an editor sends only what changed', () => {
  it('keeps the fields that differ, with their new values', () => {
    const before = { name: '年度会员', price: 9800, onSale: true, badge: '' };
    expect(changedFields({ ...before, price: 6800, badge: '限时' }, before)).toEqual({ price: 6800, badge: '限时' });
  });

  it('sends nothing when nothing changed, and counts false, 0 and empty as values', () => {
    const before = { onSale: true, sort: 3, note: 'x' };
    expect(changedFields({ ...before }, before)).toEqual({});
    expect(changedFields({ onSale: false, sort: 0, note: '' }, before)).toEqual({ onSale: false, sort: 0, note: '' });
  });
});
