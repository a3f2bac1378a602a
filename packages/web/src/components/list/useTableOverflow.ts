import { type RefObject, useEffect, useState } from 'react';

/**
 * Whether the table inside `root` is wider than its box. A list that overflows scrolls sideways as one
 * piece: a pinned column (the 操作 column) would otherwise sit over the columns beside it.
 */
export function useTableOverflow(root: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const node = root.current;
    if (!node) return;
    const watched = new Set<Element>();
    const resize = new ResizeObserver(() => measure());
    function measure() {
      if (!node) return;
      const box = node.querySelector<HTMLElement>('.ant-table-body, .ant-table-content');
      const table = box?.querySelector('table');
      for (const el of [node, box, table]) {
        if (el && !watched.has(el)) {
          watched.add(el);
          resize.observe(el);
        }
      }
      setOverflows(box && table ? table.scrollWidth > box.clientWidth + 1 : false);
    }
    measure();
    // The table's boxes come and go with its data (empty, loading, rows).
    const mutations = new MutationObserver(measure);
    mutations.observe(node, { childList: true, subtree: true });
    return () => {
      resize.disconnect();
      mutations.disconnect();
    };
  }, [root]);
  return overflows;
}
