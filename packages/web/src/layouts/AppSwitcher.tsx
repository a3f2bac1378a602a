import { AppstoreOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useEffect, useMemo } from 'react';
import { currentAppStore, setCurrentApp, useApps, useCurrentApp } from '../state/apps';

/** The value of 全部应用 in the select (a code never is empty). */
const ALL = '';

/**
 * The header's app switcher: 全部应用 or one app, by name. Every list, export and dashboard card
 * follows it (components/list/appScope.ts); the choice is kept across reloads and reaches the
 * other tabs (state/currentApp.ts). On a phone it is a compact select beside the header's icons.
 * It lists the apps the operator may see (the server scopes /api/apps/fetch/options); 全部应用 is
 * then all of those, and with none it is not shown.
 */
export function AppSwitcher({ compact }: { compact: boolean }) {
  const current = useCurrentApp();
  const { list, loaded, options, refetch } = useApps();

  // A kept choice no app has is dropped (another site's on this origin, a code edited by hand), but
  // only once the apps read again lack it too: another tab may have just registered it.
  useEffect(() => {
    if (!loaded || !current || list.some((a) => a.code === current)) return;
    void refetch().then((fresh) => {
      if (fresh.data && !fresh.data.list.some((a) => a.code === current) && currentAppStore.get().app === current) {
        setCurrentApp(undefined);
      }
    });
  }, [loaded, current, list, refetch]);

  const choices = useMemo(() => [{ value: ALL, label: '全部应用' }, ...options], [options]);
  // No app the operator may see (their roles' apps, 操作员管理): nothing to switch between.
  if (loaded && list.length === 0) return null;
  return (
    <Select
      className={compact ? 'admin-app-switcher admin-app-switcher-compact' : 'admin-app-switcher'}
      aria-label="当前应用"
      title="当前应用：列表、导出和数据统计只显示所选应用的数据"
      value={current ?? ALL}
      options={choices}
      loading={!loaded}
      prefix={compact ? null : <AppstoreOutlined aria-hidden />}
      // On a phone the arrow's room goes to the name (the header's title needs the rest).
      suffixIcon={compact ? null : undefined}
      popupMatchSelectWidth={false}
      placement="bottomRight"
      onChange={(value: string) => setCurrentApp(value === ALL ? undefined : value)}
    />
  );
}
