import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { callOk } from '../../api/request';

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

/** A server-paged answer (DESIGN.md): data { list, total, page, size }, page counted from 0. */
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

/**
 * List state kept in the URL query (so reload and back keep it), and the server page it asks for.
 * In the URL the page number counts from 1 as people read it; the API's counts from 0.
 */
export function useList<P extends PagedPath>(options: ListOptions<P>) {
  const { fetchPath, keys, toFilter, defaultSort, defaultSize = 20 } = options;
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const search = params.toString();

  const state = useMemo(() => {
    const read = new URLSearchParams(search);
    const values: ListValues = {};
    for (const key of keys) {
      const value = read.get(key);
      if (value !== null && value !== '') values[key] = value;
    }
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
  }, [search, keys, defaultSize, defaultSort?.sort, defaultSort?.order]);

  const filter = useMemo(
    () => toFilter(state.values, { sort: state.sort, order: state.order }),
    [toFilter, state.values, state.sort, state.order],
  );
  // `exact=1` in the URL asks for the exact total of a filter that matches very many rows.
  const exactTotal = new URLSearchParams(search).get('exact') === '1';
  const input = useMemo(
    () => ({ ...filter, page: state.page, size: state.size, ...(exactTotal ? { exactTotal } : {}) }),
    [filter, state.page, state.size, exactTotal],
  );

  const query = useQuery({
    queryKey: [fetchPath, input],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => callOk(fetchPath, input as ApiInput<P>, { signal }) as Promise<PagedData<RowOf<P>>>,
  });

  /** Writes the query: `patch` values replace (empty or undefined removes); the page goes back to 1. */
  const update = useCallback(
    (patch: Record<string, string | number | undefined | null>, keepPage = false) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(patch)) {
            if (value === undefined || value === null || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          if (!keepPage && !('page' in patch)) next.delete('page');
          // A new filter counts its total as any other does; the exact count is asked again if wanted.
          if (!keepPage && !('exact' in patch)) next.delete('exact');
          if (next.get('page') === '1') next.delete('page');
          if (next.get('size') === String(defaultSize)) next.delete('size');
          return next;
        },
        { replace: true },
      );
    },
    [setParams, defaultSize],
  );

  /** Clears every filter of this list (keeps page size). */
  const reset = useCallback(() => {
    update(Object.fromEntries(keys.map((k) => [k, undefined])));
  }, [update, keys]);

  /** Refetches this list (every page of it), e.g. after an action changed a row. */
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: [fetchPath] }), [queryClient, fetchPath]);

  const hasFilters = keys.some((k) => state.values[k] !== undefined);

  /** Any other value of the URL query (e.g. which detail drawer is open). */
  const param = useCallback((name: string) => new URLSearchParams(search).get(name) ?? undefined, [search]);

  return {
    ...state,
    param,
    filter,
    input,
    data: query.data,
    loading: query.isFetching,
    error: query.isError && !query.data ? query.error : null,
    refetch: query.refetch,
    update,
    reset,
    refresh,
    hasFilters,
    fetchPath,
    defaultSort,
  };
}

/** What a list page holds: its URL state, its rows, and the calls that change either. */
export type ListController<Row> = Omit<ReturnType<typeof useList>, 'data'> & { data: PagedData<Row> | undefined };
