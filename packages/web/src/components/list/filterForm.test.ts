import dayjs, { type Dayjs } from 'dayjs';
import { describe, expect, it } from 'vitest';
import { type FilterField, foldedFilters, toFormValues, toQueryPatch } from './filterForm';

const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '关键字', placeholder: '' },
  { kind: 'id', name: 'userId', label: '用户 ID', placeholder: '' },
  { kind: 'select', name: 'status', label: '状态', options: [{ value: '', label: '全部' }] },
  { kind: 'range', name: 'range', label: '时间' },
];

describe('the search form and the URL query', () => {
  it('shows the URL values, a missing one as empty and a range as two days', () => {
    const from = '2026-11-01T00:00:00.000Z';
    const to = '2026-11-02T00:00:00.000Z';
    const form = toFormValues(fields, { search: '张三', from, to });
    expect(form.search).toBe('张三');
    expect(form.userId).toBe('');
    expect(form.status).toBe('');
    const range = form.range as [Dayjs, Dayjs];
    expect(range[0].toISOString()).toBe(from);
    expect(range[1].toISOString()).toBe(to);
  });

  it('shows no range when either end is not a time', () => {
    expect(toFormValues(fields, { from: 'yesterday', to: '2026-11-02T00:00:00.000Z' }).range).toBeNull();
    expect(toFormValues(fields, { from: '2026-11-01T00:00:00.000Z' }).range).toBeNull();
  });

  it('sends trimmed values, and removes blank ones and a cleared range from the URL', () => {
    const patch = toQueryPatch(fields, { search: '  张三 ', userId: '   ', status: 'open', range: null });
    expect(patch).toEqual({ search: '张三', userId: undefined, status: 'open', from: undefined, to: undefined });
  });

  it('widens picked days to whole days', () => {
    const day = dayjs('2026-11-05T13:45:00');
    const patch = toQueryPatch(fields, { range: [day, day] });
    expect(patch.from).toBe(day.startOf('day').toISOString());
    expect(patch.to).toBe(day.endOf('day').toISOString());
  });

  it('round-trips: what the form sends, it shows again', () => {
    const values = { search: '退款', userId: '42', status: 'closed' };
    const patch = toQueryPatch(fields, toFormValues(fields, values));
    expect(patch).toMatchObject(values);
  });

  it('counts the set filters folded away on a phone (all but the first)', () => {
    expect(foldedFilters(fields, { search: '张三' })).toBe(0);
    expect(foldedFilters(fields, { search: '张三', status: 'open' })).toBe(1);
    expect(foldedFilters(fields, { userId: '7', from: '2026-11-01T00:00:00.000Z' })).toBe(2);
  });
});
