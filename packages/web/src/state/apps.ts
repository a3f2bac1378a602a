import type { ApiOutput } from '@appdesk/contract/types';
import { useMemo } from 'react';
import { useApiQuery } from '../api/hooks';

export { currentAppStore, setCurrentApp, useCurrentApp } from './currentApp';

/** The company's apps as the console knows them (应用管理): the switcher, filters, names in cells. */
export type AppOption = ApiOutput<'/api/apps/fetch/options'>['list'][number];

const noApps: AppOption[] = [];

/**
 * Words for apps' codes: an app's name (never its code, unless no app has it: a record of an app
 * since removed, or the list not loaded yet), and select options with disabled apps marked.
 */
export function appWords(list: readonly AppOption[]) {
  const byCode = new Map(list.map((a) => [a.code, a]));
  return {
    nameOf: (code: string | null | undefined) => (code ? (byCode.get(code)?.name ?? code) : ''),
    options: list.map((a) => ({ value: a.code, label: a.enabled ? a.name : `${a.name}（已停用）` })),
  };
}

/** The apps, their names by code, and select options; loaded once and refreshed after a change in 应用管理. */
export function useApps() {
  const query = useApiQuery('/api/apps/fetch/options', {});
  const data = query.data;
  const { refetch } = query;
  return useMemo(() => {
    const list = data?.list ?? noApps;
    return {
      list,
      loaded: data !== undefined,
      secretsWritable: data?.secretsWritable ?? false,
      /** Reads the apps again (another tab may have just registered one). */
      refetch,
      ...appWords(list),
    };
  }, [data, refetch]);
}
