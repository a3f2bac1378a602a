/**
 * The workspace's open pages (多页签): one tab per admin page, each remembering its full URL
 * (filters, page, sort and open drawer live in the query), kept in sessionStorage so a reload
 * brings them back. Pure functions here; TabWorkspace.tsx holds the state and the view.
 */
export interface WorkTab {
  /** The page's key (path segment under /admin/admin/). */
  key: string;
  /** Path and query the tab shows, e.g. `/admin/admin/users?search=艳`. */
  url: string;
}

/**
 * The first tab, never closed (as in Ant Design Pro and vben): the operator's landing page, 数据统计
 * when they may read it, else the first page their roles open (layouts/pageAccess.ts).
 */
export const homeTabOf = (key: string): WorkTab => ({ key, url: `/admin/admin/${key}` });
/** Beyond this many tabs the least recently opened (not the current, not home) is closed. */
export const maxTabs = 16;

const storageKey = (operator: string | number | undefined) => `appdesk.tabs.${operator ?? 'anonymous'}`;

/** The page key of an admin URL, or null when it is not a page's (e.g. /admin/admin/nothing). */
export function pageKeyOf(pathname: string, known: (key: string) => boolean): string | null {
  const match = /^\/admin\/admin\/([^/?#]+)\/?$/.exec(pathname);
  return match && known(match[1]) ? match[1] : null;
}

/** The tabs kept for the operator, of pages `known` still allows, home first. */
export function loadTabs(
  operator: string | number | undefined,
  known: (key: string) => boolean,
  home: WorkTab,
): WorkTab[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(storageKey(operator)) ?? '[]');
    if (!Array.isArray(parsed)) return [home];
    const tabs = parsed.filter(
      (t): t is WorkTab =>
        typeof t === 'object' &&
        t !== null &&
        typeof t.key === 'string' &&
        typeof t.url === 'string' &&
        known(t.key) &&
        pageKeyOf(t.url.split('?')[0], known) === t.key,
    );
    return withHome(dedupe(tabs), home);
  } catch {
    return [home];
  }
}

export function saveTabs(operator: string | number | undefined, tabs: WorkTab[]): void {
  try {
    window.sessionStorage.setItem(storageKey(operator), JSON.stringify(tabs));
  } catch {
    // No storage: the tabs last until the next reload.
  }
}

function dedupe(tabs: WorkTab[]): WorkTab[] {
  const seen = new Set<string>();
  return tabs.filter((t) => !seen.has(t.key) && seen.add(t.key));
}

function withHome(tabs: WorkTab[], home: WorkTab): WorkTab[] {
  return tabs.some((t) => t.key === home.key) ? tabs : [home, ...tabs];
}

/**
 * The tabs once `url` of page `key` is shown: its tab takes the URL, or a new one is added after
 * the others; past `maxTabs` the oldest closable tab that is not shown goes.
 */
export function openTab(tabs: WorkTab[], key: string, url: string, home: WorkTab): WorkTab[] {
  const at = tabs.findIndex((t) => t.key === key);
  if (at >= 0) {
    if (tabs[at].url === url) return tabs;
    const next = tabs.slice();
    next[at] = { key, url };
    return next;
  }
  const next = [...tabs, { key, url }];
  while (next.length > maxTabs) {
    const drop = next.findIndex((t) => t.key !== home.key && t.key !== key);
    if (drop < 0) break;
    next.splice(drop, 1);
  }
  return next;
}

/** Tabs without `key` (home stays), and the tab to show if `key` was the one shown. */
export function closeTab(tabs: WorkTab[], key: string, home: WorkTab): { tabs: WorkTab[]; neighbour: WorkTab } {
  if (key === home.key) return { tabs, neighbour: tabs.find((t) => t.key === key) ?? home };
  const at = tabs.findIndex((t) => t.key === key);
  const next = tabs.filter((t) => t.key !== key);
  // As a browser does: the tab that slides into its place, else the one before it.
  const neighbour = next[at] ?? next[at - 1] ?? next[0] ?? home;
  return { tabs: withHome(next, home), neighbour };
}

/** Only home and `key` stay. */
export function closeOthers(tabs: WorkTab[], key: string, home: WorkTab): WorkTab[] {
  return withHome(
    tabs.filter((t) => t.key === key || t.key === home.key),
    home,
  );
}

/** Every tab closes but home. */
export function closeAll(home: WorkTab): WorkTab[] {
  return [home];
}

/** Tabs to the right of `key` close. */
export function closeRight(tabs: WorkTab[], key: string, home: WorkTab): WorkTab[] {
  const at = tabs.findIndex((t) => t.key === key);
  return at < 0 ? tabs : withHome(tabs.slice(0, at + 1), home);
}
