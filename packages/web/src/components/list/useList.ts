import type { ApiInput } from '@appdesk/contract/types';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { takeEarly } from '../../api/early';
import { callOk } from '../../api/request';
import { useCurrentApp } from '../../state/currentApp';
import { followsApp } from './appScope';
import {
  type ListOptions,
  listFilter,
  listInput,
  ownValues,
  type PagedData,
  type PagedPath,
  type RowOf,
  readListState,
  wantsExactTotal,
} from './listState';

export * from './listState';

/**
 * List state kept in the URL query (so reload and back keep it), and the server page it asks for.
 * In the URL the page number counts from 1 as people read it; the API's counts from 0.
 */
export function useList<P extends PagedPath>(options: ListOptions<P>) {
  const { fetchPath, keys, toFilter, defaultSort, defaultSize = 20 } = options;
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const search = params.toString();

  // The default sort by value: pages may pass a new object each render.
  const sortKey = defaultSort?.sort;
  const sortOrder = defaultSort?.order;
  const state = useMemo(
    () =>
      readListState(search, {
        keys,
        defaultSize,
        defaultSort: sortKey && sortOrder ? { sort: sortKey, order: sortOrder } : undefined,
      }),
    [search, keys, defaultSize, sortKey, sortOrder],
  );

  // The header's app, for a list whose endpoint takes one (components/list/appScope.ts).
  const currentApp = useCurrentApp();
  const app = followsApp(fetchPath) ? currentApp : undefined;
  const filter = useMemo(() => listFilter({ fetchPath, toFilter }, state, app), [fetchPath, toFilter, state, app]);
  const exactTotal = wantsExactTotal(search);
  const input = useMemo(() => listInput(filter, state, exactTotal), [filter, state, exactTotal]);

  const query = useQuery({
    queryKey: [fetchPath, input],
    placeholderData: keepPreviousData,
    queryFn: ({ signal, queryKey }) => {
      const ask = () => callOk(fetchPath, input as ApiInput<P>, { signal }) as Promise<PagedData<RowOf<P>>>;
      // The first load of this page of the list may take the answer asked for while the code loaded
      // (api/early.ts); a refresh, or a page already shown, always asks again.
      const early =
        queryClient.getQueryData(queryKey) === undefined ? takeEarly(fetchPath, input as ApiInput<P>) : undefined;
      return early ? (early as Promise<PagedData<RowOf<P>>>).catch(ask) : ask();
    },
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

  // The switcher's app is not one of the page's filters (清空筛选 cannot clear it).
  const own = followsApp(fetchPath) ? ownValues(state.values) : state.values;
  const hasFilters = keys.some((k) => own[k] !== undefined);

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
    /** The header's app this list is narrowed to (undefined: 全部应用, or a list that does not follow it). */
    app,
  };
}

/** What a list page holds: its URL state, its rows, and the calls that change either. */
export type ListController<Row> = Omit<ReturnType<typeof useList>, 'data'> & { data: PagedData<Row> | undefined };
