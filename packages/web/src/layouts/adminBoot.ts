import type { ApiInput } from '@appdesk/contract/types';
import { startEarly } from '../api/early';
import { type ListOptions, listInputOf, type PagedPath } from '../components/list/listState';
import { usersList } from '../pages/admin/users/query';
import { currentAppStore } from '../state/currentApp';
import { loadPageCode } from './adminChunks';

/** Lists whose first page is asked for with the page's code (the users list: 1M rows take a while). */
const earlyLists: Record<string, ListOptions<PagedPath> | undefined> = { users: usersList };

/**
 * Starts what an admin page needs before the console renders it, side by side: its code and, for
 * the lists above, the page of rows its URL query (`search`) asks for. `cached` tells whether the
 * console already holds that answer (then the list shows it and nothing is asked).
 */
export function preparePage(
  key: string,
  search: string,
  cached: (path: PagedPath, input: unknown) => boolean = () => false,
): void {
  loadPageCode(key);
  const list = earlyLists[key];
  if (!list) return;
  const input = listInputOf(search, list, currentAppStore.get().app);
  if (!cached(list.fetchPath, input)) startEarly(list.fetchPath, input as ApiInput<PagedPath>);
}

/**
 * The console's first load: the operator's grants (state/grants.ts), which decide the menu and
 * whether the page may be shown, beside the page's code and rows.
 */
export function startConsole(page: string, search: string): void {
  startEarly('/api/operators/fetch/me', {});
  preparePage(page, search);
}
