import {
  DashboardOutlined,
  PictureOutlined,
  RocketOutlined,
  SettingOutlined,
  ShoppingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Menu } from 'antd';
import type { ReactNode } from 'react';
import { memo, useEffect, useMemo, useState } from 'react';
import { loadPageCode } from './adminChunks';
import { type AdminMenuGroup, type AdminPage, adminMenuGroups } from './adminPages';

const groupIcons: Record<AdminMenuGroup, ReactNode> = {
  overview: <DashboardOutlined aria-hidden />,
  people: <TeamOutlined aria-hidden />,
  release: <RocketOutlined aria-hidden />,
  commerce: <ShoppingOutlined aria-hidden />,
  content: <PictureOutlined aria-hidden />,
  system: <SettingOutlined aria-hidden />,
};

const OPEN_GROUPS_KEY = 'appdesk.menu.open';
const groupKey = (group: string) => `group-${group}`;

/** The groups the operator left open last time (none remembered: none). */
function rememberedOpenGroups(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(OPEN_GROUPS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** The menu's groups holding the given pages; a group none of them is in is left out. */
function menuItems(pages: readonly AdminPage[]) {
  return adminMenuGroups
    .map(({ key, label }) => ({
      key: groupKey(key),
      label,
      icon: groupIcons[key],
      children: pages
        .filter((p) => p.group === key)
        // The pointer on an entry starts downloading its page's code, ahead of the click.
        .map(({ key: page, label: text, icon, hint }) => ({
          key: page,
          label: hint ? <span title={hint}>{text}</span> : text,
          icon,
          onMouseEnter: () => loadPageCode(page),
        })),
    }))
    .filter((group) => group.children.length > 0);
}

/**
 * The side menu, grouped. Open groups are remembered per browser; the open page's group is always
 * opened, and its entry scrolled into view, so the operator never hunts for where they are.
 * Memoised: antd's Menu is the shell's heaviest part, and the shell re-renders on every change of
 * the operator, the site settings or the notices, none of which it shows.
 */
export const SideMenu = memo(function SideMenu({
  pages,
  current,
  collapsed,
  onOpenPage,
}: {
  /**
   * The entries, in menu order: the pages the operator's roles open (layouts/pageAccess.ts), not
   * those reached from the header (个人中心, 消息中心).
   */
  pages: readonly AdminPage[];
  current: string | undefined;
  /** Inline-collapsed sider: groups open as pop-ups, nothing to remember. */
  collapsed: boolean;
  onOpenPage: (key: string) => void;
}) {
  const [openKeys, setOpenKeys] = useState<string[]>(rememberedOpenGroups);
  const items = useMemo(() => menuItems(pages), [pages]);
  const currentGroup = pages.find((p) => p.key === current)?.group;

  useEffect(() => {
    if (!currentGroup) return;
    setOpenKeys((keys) => (keys.includes(groupKey(currentGroup)) ? keys : [...keys, groupKey(currentGroup)]));
  }, [currentGroup]);

  useEffect(() => {
    if (!current) return;
    // After the group's opening animation has laid the entry out.
    const timer = window.setTimeout(() => {
      document.querySelector('.admin-menu .ant-menu-item-selected')?.scrollIntoView({ block: 'nearest' });
    }, 250);
    return () => window.clearTimeout(timer);
  }, [current]);

  const changeOpen = (keys: string[]) => {
    setOpenKeys(keys);
    try {
      window.localStorage.setItem(OPEN_GROUPS_KEY, JSON.stringify(keys));
    } catch {
      // Private mode without storage: the choice lasts until the next reload.
    }
  };

  return (
    <Menu
      className="admin-menu"
      theme="dark"
      mode="inline"
      selectedKeys={current ? [current] : []}
      {...(collapsed ? {} : { openKeys, onOpenChange: changeOpen })}
      items={items}
      onClick={({ key }) => onOpenPage(key)}
    />
  );
});
