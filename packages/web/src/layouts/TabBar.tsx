import { CloseOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { type KeyboardEvent, type ReactNode, useLayoutEffect, useRef, type WheelEvent } from 'react';

export interface BarTab {
  key: string;
  label: string;
  closable: boolean;
}

/** The ids that tie a tab to its panel (aria-controls / aria-labelledby). */
export const tabId = (key: string) => `admin-tab-${key}`;
export const panelId = (key: string) => `admin-tabpanel-${key}`;

/**
 * The workspace's tab strip. Its tablist holds only tabs (antd's also held its close and overflow
 * buttons, which screen readers and axe reject), and it scrolls sideways inside its own box: the
 * document never gets wider than the window, whatever the number of tabs, and the shown tab is
 * always scrolled into view. A tab's close cross is for the pointer; the keyboard closes the focused
 * tab with Delete, and the bar's menu (`extra`) lists every tab and closes them too.
 */
export function TabBar({
  tabs,
  activeKey,
  menuFor,
  onSelect,
  onClose,
  extra,
  headRef,
}: {
  tabs: BarTab[];
  activeKey: string | null;
  menuFor: (key: string) => MenuProps;
  onSelect: (key: string) => void;
  onClose: (key: string) => void;
  extra: ReactNode;
  headRef: React.RefObject<HTMLDivElement | null>;
}) {
  const scroller = useRef<HTMLDivElement>(null);

  // The shown tab in view: on a change of tab and of the strip's width.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const reveal = () => {
      const shown = box.querySelector<HTMLElement>(`[data-node-key="${activeKey}"]`);
      if (!shown) return;
      const left = shown.offsetLeft;
      const right = left + shown.offsetWidth;
      if (left < box.scrollLeft) box.scrollLeft = Math.max(0, left - 24);
      else if (right > box.scrollLeft + box.clientWidth) box.scrollLeft = right - box.clientWidth + 24;
    };
    reveal();
    const observer = new ResizeObserver(reveal);
    observer.observe(box);
    return () => observer.disconnect();
  }, [activeKey]);

  // A mouse wheel over the strip scrolls it sideways (only a touchpad scrolls it by itself).
  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    const box = scroller.current;
    if (!box || box.scrollWidth <= box.clientWidth || Math.abs(event.deltaX) > Math.abs(event.deltaY)) return;
    box.scrollLeft += event.deltaY;
  };

  // The tabs pattern: arrows, Home and End move to a tab and show it; Delete closes the focused one.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, at: number) => {
    const move: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1 };
    if (event.key in move) {
      event.preventDefault();
      const next = tabs[(move[event.key] + tabs.length) % tabs.length];
      onSelect(next.key);
      document.getElementById(tabId(next.key))?.focus();
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(tabs[at].key);
    } else if (event.key === 'Delete' && tabs[at].closable) {
      event.preventDefault();
      onClose(tabs[at].key);
    }
  };

  return (
    <div className="admin-tabs-head" ref={headRef}>
      <div className="admin-tabs-scroll" ref={scroller} onWheel={onWheel}>
        <div role="tablist" aria-label="已打开的页面" className="admin-tabs-list">
          {tabs.map((tab, at) => {
            const active = tab.key === activeKey;
            return (
              <Dropdown key={tab.key} trigger={['contextMenu']} menu={menuFor(tab.key)}>
                <div className={active ? 'admin-tab admin-tab-active' : 'admin-tab'} data-node-key={tab.key}>
                  <div
                    role="tab"
                    id={tabId(tab.key)}
                    className="admin-tab-btn"
                    aria-selected={active}
                    aria-controls={panelId(tab.key)}
                    aria-keyshortcuts={tab.closable ? 'Delete' : undefined}
                    tabIndex={active || (activeKey === null && tab === tabs[0]) ? 0 : -1}
                    onClick={() => onSelect(tab.key)}
                    onKeyDown={(event) => onKeyDown(event, at)}
                  >
                    {tab.label}
                  </div>
                  {tab.closable ? (
                    // The pointer's way to close; hidden from screen readers, whose way is Delete or the menu.
                    <span
                      className="admin-tab-close"
                      aria-hidden="true"
                      title="关闭页签"
                      onClick={(event) => {
                        event.stopPropagation();
                        onClose(tab.key);
                      }}
                    >
                      <CloseOutlined />
                    </span>
                  ) : null}
                </div>
              </Dropdown>
            );
          })}
        </div>
      </div>
      {extra}
    </div>
  );
}
