import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';
import { followsApp, scopeToApp } from './appScope';

/*
 * A list's state as the URL query holds it, and the server page that state asks for: plain
 * functions (no React, no antd), so the entry can ask for a page before the page's code is loaded.
 */

/** Filter values as they live in the URL query: strings, absent when not set. */
export type ListValues = Record<string, string | undefined>;

export type SortOrder = 'ascend' | 'descend';

/** The sort an endpoint accepts from the URL's: an unknown column falls back to the first, newest first. */
export function sortParams<K extends string>(
  sort: { sort?: string; order?: SortOrder },
  columns: readonly [K, ...K[]],
): { sort: K; order: SortOrder } {
  return { sort: columns.includes(sort.sort as K) ? (sort.sort as K) : columns[0], order: sort.order ?? 'descend' };
}

/** A server-paged answer (docs/architecture.md#lists): data { list, total, page, size }, page counted from 0. */
export interface PagedData<Row> {
  list: Row[];
  total: number;
  /** False when a filtered total was counted only up to a limit: `total` is then "at least". */
  totalExact: boolean;
  page: number;
  size: number;
}

/** The endpoints that answer a server page: `{ list, total, page, size }`. */
export type PagedPath = {
  [P in ApiPath]: ApiOutput<P> extends PagedData<unknown> ? P : never;
}[ApiPath];
/** A row of a paged endpoint's list. */
export type RowOf<P extends PagedPath> = ApiOutput<P>['list'][number];
/** A paged endpoint's input without the page: its filter, sort and order. */
export type FilterOf<P extends PagedPath> = Omit<ApiInput<P>, 'page' | 'size'>;

export interface ListOptions<P extends PagedPath> {
  /** The page endpoint: input is the filter plus page and size; rows and filter are typed from it. */
  fetchPath: P;
  /** The URL query keys that hold filters (everything but page, size, sort, order). */
  keys: readonly string[];
  /** Turns the URL values into the endpoint's filter (no page, size; sort and order if it sorts). */
  toFilter: (values: ListValues, sort: { sort?: string; order?: SortOrder }) => FilterOf<P>;
  /** Sort used when the URL names none (only for endpoints that sort). */
  defaultSort?: { sort: string; order: SortOrder };
  defaultSize?: number;
}

export const pageSizes = [10, 20, 50, 100];

/** Reads an id filter: a positive integer, or undefined. */
export function idValue(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 && n <= 2_147_483_647 ? n : undefined;
}

/** Reads a yes/no filter kept in the URL as 'true' or 'false' (anything else: not filtered). */
export function flagValue(value: string | undefined): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** Reads the from/to ISO time range kept in the URL. */
export function rangeValue(values: ListValues): { from?: string; to?: string } {
  const valid = (v: string | undefined) => (v && !Number.isNaN(Date.parse(v)) ? v : undefined);
  return { from: valid(values.from), to: valid(values.to) };
}

/** What the URL query says of a list: its filter values, page (from 0), size and sort. */
export interface ListState {
  values: ListValues;
  page: number;
  size: number;
  sort: string | undefined;
  order: SortOrder | undefined;
}

/** Reads a list's state from the URL query (`search` without or with its "?"). */
export function readListState(
  search: string,
  options: Pick<ListOptions<PagedPath>, 'keys' | 'defaultSort' | 'defaultSize'>,
): ListState {
  const { keys, defaultSort, defaultSize = 20 } = options;
  const read = new URLSearchParams(search);
  const values: ListValues = {};
  for (const key of keys) {
    const value = read.get(key);
    if (value !== null && value !== '') values[key] = value;
  }
  // In the URL the page number counts from 1 as people read it; the API's counts from 0.
  const pageNumber = Math.max(1, Math.min(10_000_000, Number.parseInt(read.get('page') ?? '1', 10) || 1));
  const sizeParam = Number.parseInt(read.get('size') ?? '', 10);
  const size = pageSizes.includes(sizeParam) ? sizeParam : defaultSize;
  const orderParam = read.get('order');
  const sort = read.get('sort') || defaultSort?.sort;
  const order: SortOrder | undefined =
    orderParam === 'ascend' || orderParam === 'descend'
      ? orderParam
      : sort
        ? (defaultSort?.order ?? 'descend')
        : undefined;
  return { values, page: pageNumber - 1, size, sort, order };
}

/** `exact=1` in the URL asks for the exact total of a filter that matches very many rows. */
export const wantsExactTotal = (search: string) => new URLSearchParams(search).get('exact') === '1';

/** The page request: the filter, the page and its size (and the exact-total wish). */
export function listInput<P extends PagedPath>(filter: FilterOf<P>, state: ListState, exactTotal: boolean) {
  return { ...filter, page: state.page, size: state.size, ...(exactTotal ? { exactTotal } : {}) };
}

/**
 * A list's filter: the page's, from the URL's values, under the header's app (`app`, undefined:
 * 全部应用) when the list follows the switcher. The switcher is then the one source of the app: a
 * page's own 应用 value in the URL is not read.
 */
export function listFilter<P extends PagedPath>(
  options: Pick<ListOptions<P>, 'fetchPath' | 'toFilter'>,
  state: Pick<ListState, 'values' | 'sort' | 'order'>,
  app: string | undefined,
): FilterOf<P> {
  const values = followsApp(options.fetchPath) ? ownValues(state.values) : state.values;
  return scopeToApp(options.fetchPath, options.toFilter(values, { sort: state.sort, order: state.order }), app);
}

/** The URL's values without the page's own app (the switcher holds it). */
export function ownValues(values: ListValues): ListValues {
  const { app: _app, ...rest } = values;
  return rest;
}

/** The page request the URL query asks for under the header's app (what useList will ask, from the same query). */
export function listInputOf<P extends PagedPath>(search: string, options: ListOptions<P>, app?: string) {
  const state = readListState(search, options);
  return listInput(listFilter(options, state, app), state, wantsExactTotal(search));
}

/**
 * Why a list could not load, for its empty state: the network (nothing reached the server), the
 * server's own fault (a 5xx: retrying later may help, the network is fine), or what the server said.
 */
export function listFailure(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 0) return '列表加载失败：网络连接失败，请检查网络后重试';
  if (typeof status === 'number' && status >= 500) return `列表加载失败：服务器出错（${status}），请稍后重试`;
  const said = error instanceof Error ? error.message : '';
  return /[\u4e00-\u9fff]/.test(said) ? `列表加载失败：${said}` : '列表加载失败，请稍后重试';
}
