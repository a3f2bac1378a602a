import { describe, expect, it } from 'vitest';
import {
  flagValue,
  idValue,
  listFailure,
  listFilter,
  listInputOf,
  rangeValue,
  readListState,
  sortParams,
  wantsExactTotal,
} from './listState';

describe('listFailure', () => {
  it('blames the network only when nothing reached the server', () => {
    const http = (status: number, message: string) => Object.assign(new Error(message), { status });
    expect(listFailure(http(0, '网络连接失败，请检查网络后重试'))).toBe('列表加载失败：网络连接失败，请检查网络后重试');
    expect(listFailure(http(500, '服务器暂时无法处理，请稍后再试'))).toBe(
      '列表加载失败：服务器出错（500），请稍后重试',
    );
    expect(listFailure(http(502, 'Bad Gateway'))).not.toContain('网络');
    // A coded answer: what the server said, in its words; never English.
    expect(listFailure(Object.assign(new Error('没有权限'), { code: 403 }))).toBe('列表加载失败：没有权限');
    expect(listFailure(new Error('Failed to fetch'))).toBe('列表加载失败，请稍后重试');
  });
});

describe('a list state in the URL', () => {
  const options = {
    keys: ['search', 'status'] as const,
    defaultSort: { sort: 'createdAt', order: 'descend' as const },
  };

  it('reads only its own keys, counts pages from 1 in the URL and from 0 for the API', () => {
    const state = readListState('?search=abc&status=&other=1&page=3&size=50', options);
    expect(state.values).toEqual({ search: 'abc' });
    expect(state.page).toBe(2);
    expect(state.size).toBe(50);
  });

  it('falls back on a page or size the list does not offer', () => {
    expect(readListState('page=-4&size=33', options)).toMatchObject({ page: 0, size: 20 });
    expect(readListState('page=abc&size=100', options)).toMatchObject({ page: 0, size: 100 });
    expect(readListState('page=99999999999', options).page).toBe(9_999_999);
    expect(readListState('', { ...options, defaultSize: 50 }).size).toBe(50);
  });

  it('sorts by the default unless the URL names a sort, newest first unless it says ascend', () => {
    expect(readListState('', options)).toMatchObject({ sort: 'createdAt', order: 'descend' });
    expect(readListState('sort=cost&order=ascend', options)).toMatchObject({ sort: 'cost', order: 'ascend' });
    expect(readListState('sort=cost&order=sideways', options)).toMatchObject({ sort: 'cost', order: 'descend' });
    expect(readListState('', { keys: [] })).toMatchObject({ sort: undefined, order: undefined });
  });

  it('asks the API for the filter, the page and the exact total only when the URL wants it', () => {
    const toFilter = (values: Record<string, string | undefined>) => ({ search: values.search ?? '' });
    const ask = (search: string) =>
      listInputOf(search, { fetchPath: '/api/users/fetch/page', keys: ['search'], toFilter } as never);
    expect(ask('search=x&page=2')).toEqual({ search: 'x', page: 1, size: 20 });
    expect(ask('exact=1')).toEqual({ search: '', page: 0, size: 20, exactTotal: true });
    expect(wantsExactTotal('exact=yes')).toBe(false);
  });
});

describe('filter values', () => {
  it('an id is a positive 32-bit integer written in digits', () => {
    expect(idValue('42')).toBe(42);
    for (const bad of [undefined, '', '0', '-1', '1.5', ' 7', '2147483648', '12345678901']) {
      expect(idValue(bad)).toBeUndefined();
    }
  });

  it('a flag is true, false or not filtered', () => {
    expect(flagValue('true')).toBe(true);
    expect(flagValue('false')).toBe(false);
    expect(flagValue('1')).toBeUndefined();
  });

  it('a range keeps only ends that are times', () => {
    expect(rangeValue({ from: '2026-11-01T00:00:00.000Z', to: 'tomorrow' })).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: undefined,
    });
  });

  it('a sort the endpoint does not offer falls back to its first column, newest first', () => {
    expect(sortParams({ sort: 'cost', order: 'ascend' }, ['createdAt', 'cost'] as const)).toEqual({
      sort: 'cost',
      order: 'ascend',
    });
    expect(sortParams({ sort: 'password' }, ['createdAt', 'cost'] as const)).toEqual({
      sort: 'createdAt',
      order: 'descend',
    });
  });
});

describe("a list under the header's app", () => {
  // A page's filter as the pages write it: its own 应用 value from the URL, and a search.
  const toFilter = (values: Record<string, string | undefined>) => ({ app: values.app, search: values.search });
  const state = (values: Record<string, string | undefined>) => ({ values, sort: undefined, order: undefined });

  it("asks a list whose endpoint takes an app for the switcher's app, whatever the URL says", () => {
    const plans = { fetchPath: '/api/plan/fetch/page', toFilter } as never;
    expect(listFilter(plans, state({ app: 'tailor', search: 'x' }), 'quote')).toEqual({ app: 'quote', search: 'x' });
    expect(listFilter(plans, state({ search: 'x' }), 'quote')).toEqual({ app: 'quote', search: 'x' });
  });

  it("sends no app under 全部应用, not even one left in the URL by a page's old filter", () => {
    const plans = { fetchPath: '/api/plan/fetch/page', toFilter } as never;
    const filter = listFilter(plans, state({ app: 'tailor', search: 'x' }), undefined);
    expect(filter).toEqual({ search: 'x' });
    expect('app' in filter).toBe(false);
  });

  it('leaves a company-wide list (no app in its input) as the page asks it', () => {
    const coins = { fetchPath: '/api/coin/fetch/page', toFilter } as never;
    expect(listFilter(coins, state({ search: 'x' }), 'quote')).toEqual({ app: undefined, search: 'x' });
  });

  it("asks the first page for the switcher's app too (the page asked early, before its code loaded)", () => {
    const plans = { fetchPath: '/api/plan/fetch/page', keys: ['search', 'app'], toFilter } as never;
    expect(listInputOf('search=138&app=tailor', plans, 'quote')).toEqual({
      app: 'quote',
      search: '138',
      page: 0,
      size: 20,
    });
    expect(listInputOf('search=138&app=tailor', plans)).toEqual({ search: '138', page: 0, size: 20 });
  });
});
