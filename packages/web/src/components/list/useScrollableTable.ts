import { type RefObject, useEffect } from 'react';

/**
 * A table wider than its card scrolls sideways inside its own box. That box takes keyboard focus
 * (Tab to it, then the arrow keys scroll it) and has a name, so the columns past the edge are
 * reachable without a mouse, also when no row holds a link or button of its own.
 */
export function useScrollableTable(root: RefObject<HTMLElement | null>, label: string): void {
  useEffect(() => {
    const node = root.current;
    if (!node) return;
    const mark = () => {
      for (const box of node.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')) {
        if (box.hasAttribute('tabindex')) continue;
        box.tabIndex = 0;
        box.setAttribute('role', 'region');
        box.setAttribute('aria-label', label);
      }
    };
    mark();
    // The table's boxes come and go with its data (empty, loading, rows).
    const observer = new MutationObserver(mark);
    observer.observe(node, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [root, label]);
}
