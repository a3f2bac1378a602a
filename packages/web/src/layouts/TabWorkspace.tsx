import { CloseOutlined, DownOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps, Spin, Tooltip, Watermark } from 'antd';
import {
  Activity,
  memo,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { type Location, Route, Routes, useLocation, useNavigate } from 'react-router';
import { PageGuard } from '../components/admin/PageGuard';
import { ChunkBoundary } from '../components/ChunkBoundary';
import { useScheme } from '../components/theme';
import { readStoredUser } from '../state/session';
import { adminPages } from './adminPages';
import { type BarTab, panelId, TabBar, tabId } from './TabBar';
import {
  closeAll,
  closeOthers,
  closeRight,
  closeTab,
  homeTab,
  loadTabs,
  openTab,
  pageKeyOf,
  saveTabs,
  type WorkTab,
} from './tabs';

const pageByKey = new Map(adminPages.map((page) => [page.key, page]));
const known = (key: string) => pageByKey.has(key);

function PageSpinner() {
  return (
    <div className="admin-spinner">
      <Spin size="large" delay={200} />
    </div>
  );
}

type TabAction = 'refresh' | 'close' | 'others' | 'right' | 'all';

/** The tab an unknown console URL shows (the 404 view): there while the URL is, never stored. */
const missingKey = 'notfound';

/** A stored URL as the router location a hidden tab's page reads (its filters, page and drawer). */
function toLocation(tab: WorkTab): Location {
  const at = tab.url.indexOf('?');
  return {
    pathname: at < 0 ? tab.url : tab.url.slice(0, at),
    search: at < 0 ? '' : tab.url.slice(at),
    hash: '',
    state: null,
    key: `tab-${tab.key}`,
  };
}

/**
 * One tab's page, memoised so a navigation re-renders only the tab shown: a hidden tab keeps the
 * same location object and props, so React leaves it alone.
 */
const TabPage = memo(function TabPage({
  pageKey,
  location,
  active,
  watermark,
}: {
  pageKey: string;
  location: Location;
  active: boolean;
  watermark: string | null;
}) {
  const dark = useScheme() === 'dark';
  const Component = pageByKey.get(pageKey)?.Component;
  if (!Component) return null;
  return (
    <Activity mode={active ? 'visible' : 'hidden'}>
      <div className="admin-page">
        <Suspense fallback={<PageSpinner />}>
          <Routes location={location}>
            <Route
              path="*"
              element={
                <PageGuard page={pageKey} label={pageByKey.get(pageKey)?.label ?? ''} pending={<PageSpinner />}>
                  <Component />
                </PageGuard>
              }
            />
          </Routes>
        </Suspense>
        {/* The watermark lies over the page beside it, not around it: a wrapper that came and went
            (the operator's name arrives after the first render; 个人中心 turns it off) remounted the
            page, which lost its state and asked for its rows a second time. */}
        {watermark ? (
          <Watermark
            content={watermark}
            font={{ color: dark ? 'rgba(255, 255, 255, 0.08)' : 'rgba(0, 0, 0, 0.07)', fontSize: 14 }}
            gap={[120, 120]}
            style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}
          />
        ) : null}
      </div>
    </Activity>
  );
});

/**
 * The multi-tab workspace (多页签): every page opened stays as a tab above the content and stays
 * mounted while hidden (React's <Activity>: state, scroll and open drawers are kept, its effects
 * paused), each tab remembering its own URL; tabs survive a reload (sessionStorage, per
 * operator) and close, close-others and refresh from the tab's context menu or the buttons.
 */
export function TabWorkspace({
  watermarkOf,
  fallback,
}: {
  /** The watermark text over a page, or null. */
  watermarkOf: (key: string) => string | null;
  /** Shown when the URL is no page's (the 404 view). */
  fallback: ReactNode;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const [operator] = useState(() => readStoredUser()?.id);
  const activeKey = pageKeyOf(location.pathname, known);
  const activeUrl = location.pathname + location.search;

  const [tabs, setTabs] = useState<WorkTab[]>(() => loadTabs(operator, known));
  // The shown tab just closed: its page stays until the navigation to the neighbour lands.
  const [closing, setClosing] = useState<string | null>(null);
  if (closing && closing !== activeKey) setClosing(null);
  // The page shown always has its tab, holding the URL as it is now.
  const current = activeKey && activeKey !== closing ? openTab(tabs, activeKey, activeUrl) : tabs;
  if (current !== tabs) setTabs(current);
  const [generation, setGeneration] = useState<Record<string, number>>({});
  // A tab's page is made the first time it is shown: a reload brings the tabs back, not 16 pages at once.
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set());
  if (activeKey && !visited.has(activeKey)) setVisited(new Set(visited).add(activeKey));

  useEffect(() => saveTabs(operator, current), [operator, current]);

  // Each tab's own scroll position, restored when it is shown again.
  const scrolls = useRef(new Map<string, number>());
  const shownKey = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (shownKey.current === activeKey) return;
    shownKey.current = activeKey;
    window.scrollTo(0, (activeKey && scrolls.current.get(activeKey)) || 0);
  }, [activeKey]);
  useEffect(() => {
    const onScroll = () => {
      if (shownKey.current) scrolls.current.set(shownKey.current, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // Hidden tabs read a location made from their URL; the same object while the URL stays.
  const locations = useRef(new Map<string, Location>());
  const locationOf = (tab: WorkTab): Location => {
    if (tab.key === activeKey) return location;
    const cached = locations.current.get(tab.key);
    if (cached && cached.pathname + cached.search === tab.url) return cached;
    const made = toLocation(tab);
    locations.current.set(tab.key, made);
    return made;
  };

  const act = useCallback(
    (action: TabAction, key: string) => {
      if (action === 'refresh') {
        setGeneration((g) => ({ ...g, [key]: (g[key] ?? 0) + 1 }));
        return;
      }
      let next: WorkTab[];
      let show: WorkTab | undefined;
      if (key === missingKey) {
        // Closing the 404 tab goes back to the last open page.
        next = action === 'all' ? closeAll() : current;
        show = next.at(-1) ?? homeTab;
      } else if (action === 'close') {
        const closed = closeTab(current, key);
        next = closed.tabs;
        if (key === activeKey) show = closed.neighbour;
      } else if (action === 'others') {
        next = closeOthers(current, key);
        if (key !== activeKey && activeKey !== homeTab.key) show = next.find((t) => t.key === key);
      } else if (action === 'all') {
        next = closeAll();
      } else {
        next = closeRight(current, key);
      }
      if (activeKey && !next.some((t) => t.key === activeKey)) show ??= next.find((t) => t.key === key) ?? homeTab;
      const gone = current.filter((t) => !next.some((n) => n.key === t.key)).map((t) => t.key);
      for (const key of gone) {
        scrolls.current.delete(key);
        locations.current.delete(key);
      }
      if (gone.length) setVisited((seen) => new Set([...seen].filter((key) => !gone.includes(key))));
      setTabs(next);
      if (show) {
        setClosing(activeKey);
        navigate(show.url);
      }
    },
    [current, activeKey, navigate],
  );

  const shown = activeKey ?? missingKey;
  const barTabs: BarTab[] = current.map((tab) => ({
    key: tab.key,
    label: pageByKey.get(tab.key)?.label ?? tab.key,
    closable: tab.key !== homeTab.key,
  }));
  if (!activeKey) barTabs.push({ key: missingKey, label: '页面不存在', closable: true });

  const actionItems = (key: string): NonNullable<MenuProps['items']> => {
    if (key === missingKey) {
      return [
        { key: 'close', label: '关闭', icon: <CloseOutlined aria-hidden /> },
        { key: 'all', label: '关闭全部', disabled: current.length < 2 },
      ];
    }
    const at = current.findIndex((t) => t.key === key);
    return [
      { key: 'refresh', label: '刷新', icon: <ReloadOutlined aria-hidden /> },
      { key: 'close', label: '关闭', icon: <CloseOutlined aria-hidden />, disabled: key === homeTab.key },
      { key: 'others', label: '关闭其他', disabled: current.every((t) => t.key === key || t.key === homeTab.key) },
      { key: 'right', label: '关闭右侧', disabled: at < 0 || at === current.length - 1 },
      { key: 'all', label: '关闭全部', disabled: current.length < 2 },
    ];
  };
  const menuFor = (key: string): MenuProps => ({
    items: actionItems(key),
    onClick: ({ key: action, domEvent }) => {
      domEvent.stopPropagation();
      act(action as TabAction, key);
    },
  });
  // The bar's menu: the shown tab's actions, then every open tab (the way to one scrolled out of view).
  const barMenu: MenuProps = {
    items: [
      ...actionItems(shown),
      { type: 'divider' },
      {
        type: 'group',
        label: '已打开的页签',
        children: barTabs.map((tab) => ({ key: `show:${tab.key}`, label: tab.label })),
      },
    ],
    selectable: true,
    selectedKeys: [`show:${shown}`],
    onClick: ({ key }) => {
      if (!key.startsWith('show:')) return act(key as TabAction, shown);
      const tab = current.find((t) => t.key === key.slice(5));
      if (tab) navigate(tab.url);
    },
  };

  // Drawers open below the header and this tab bar (admin.css), so a tab can be switched with one open.
  const head = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const node = head.current;
    if (!node) return;
    const root = document.documentElement;
    const measure = () => {
      const top = Number.parseFloat(getComputedStyle(node).top) || 0;
      root.style.setProperty('--admin-chrome-height', `${Math.round(top + node.offsetHeight)}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--admin-chrome-height');
    };
  }, []);

  const extra = (
    <div className="admin-tabs-extra">
      <Tooltip title="刷新当前页">
        <Button
          type="text"
          size="small"
          aria-label="刷新当前页"
          icon={<ReloadOutlined aria-hidden />}
          disabled={!activeKey}
          onClick={() => activeKey && act('refresh', activeKey)}
        />
      </Tooltip>
      <Dropdown trigger={['click']} menu={barMenu}>
        <Button type="text" size="small" aria-label="页签操作" icon={<DownOutlined aria-hidden />} />
      </Dropdown>
    </div>
  );

  return (
    <div className="admin-tabs">
      <TabBar
        tabs={barTabs}
        activeKey={shown}
        menuFor={menuFor}
        onSelect={(key) => {
          const tab = current.find((t) => t.key === key);
          if (tab && key !== activeKey) navigate(tab.url);
        }}
        onClose={(key) => act('close', key)}
        extra={extra}
        headRef={head}
      />
      {current.map((tab) => (
        <div
          key={tab.key}
          role="tabpanel"
          id={panelId(tab.key)}
          aria-labelledby={tabId(tab.key)}
          tabIndex={-1}
          hidden={tab.key !== activeKey}
        >
          {visited.has(tab.key) || tab.key === activeKey ? (
            <ChunkBoundary key={generation[tab.key] ?? 0}>
              <TabPage
                pageKey={tab.key}
                location={locationOf(tab)}
                active={tab.key === activeKey}
                watermark={watermarkOf(tab.key)}
              />
            </ChunkBoundary>
          ) : null}
        </div>
      ))}
      {activeKey ? null : (
        <div
          role="tabpanel"
          id={panelId(missingKey)}
          aria-labelledby={tabId(missingKey)}
          tabIndex={-1}
          className="admin-page"
        >
          {fallback}
        </div>
      )}
    </div>
  );
}
