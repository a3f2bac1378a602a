import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  ColumnHeightOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Popover, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useMemo, useState } from 'react';
import { readStoredUser } from '../../state/session';

/**
 * The list toolbar's settings (as ProTable's): density, and which columns show, in what order and
 * pinned where; remembered per operator and list in localStorage.
 */
export type Density = 'large' | 'middle' | 'small';
export type Pin = 'left' | 'right' | 'none';

export interface ColumnSetting {
  key: string;
  hidden?: boolean;
  pin?: Pin;
}

export interface TableSettings {
  density: Density;
  /** Configurable columns in the operator's order. */
  columns: ColumnSetting[];
}

const densities: { key: Density; label: string }[] = [
  { key: 'large', label: '宽松' },
  { key: 'middle', label: '中等' },
  { key: 'small', label: '紧凑' },
];

/** A column's stable id: its key, else its dataIndex. */
export function columnId(column: ColumnsType<never>[number]): string | null {
  if (column.key !== undefined && column.key !== null) return String(column.key);
  const index = (column as { dataIndex?: unknown }).dataIndex;
  if (typeof index === 'string' || typeof index === 'number') return String(index);
  if (Array.isArray(index)) return index.join('.');
  return null;
}

function storageKey(list: string): string {
  return `appdesk.table.${readStoredUser()?.id ?? 'anonymous'}.${list}`;
}

function read(list: string): Partial<TableSettings> {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(storageKey(list)) ?? '{}') as Partial<TableSettings>;
    return typeof parsed === 'object' && parsed ? parsed : {};
  } catch {
    return {};
  }
}

/** The saved settings of `list`, and the columns as they apply (order, hidden, pinned). */
export function useTableSettings<Row>(list: string, columns: ColumnsType<Row>) {
  const [saved, setSaved] = useState<Partial<TableSettings>>(() => read(list));
  const ids = useMemo(() => columns.map((c) => columnId(c as ColumnsType<never>[number])), [columns]);

  const save = useCallback(
    (next: Partial<TableSettings>) => {
      setSaved(next);
      try {
        if (Object.keys(next).length === 0) window.localStorage.removeItem(storageKey(list));
        else window.localStorage.setItem(storageKey(list), JSON.stringify(next));
      } catch {
        // No storage: the settings last until the next reload.
      }
    },
    [list],
  );

  /** Every configurable column with its setting, in the operator's order (new columns at their place). */
  const settings = useMemo<ColumnSetting[]>(() => {
    const known = ids.filter((id): id is string => id !== null);
    const stored = (saved.columns ?? []).filter((s) => known.includes(s.key));
    const missing = known.filter((id) => !stored.some((s) => s.key === id)).map((key) => ({ key }));
    return [...stored, ...missing];
  }, [ids, saved.columns]);

  const applied = useMemo(() => {
    if (!saved.columns?.length) return columns;
    const byId = new Map(columns.map((c, i) => [ids[i], c]));
    const out: ColumnsType<Row> = [];
    for (const s of settings) {
      const column = byId.get(s.key);
      if (!column || s.hidden) continue;
      out.push(s.pin === undefined ? column : { ...column, fixed: s.pin === 'none' ? undefined : s.pin });
    }
    // Columns without an id (none configurable) keep their place at the end.
    columns.forEach((c, i) => {
      if (ids[i] === null) out.push(c);
    });
    return out;
  }, [columns, ids, settings, saved.columns]);

  return {
    density: (saved.density ?? 'small') as Density,
    setDensity: (density: Density) => save({ ...saved, density }),
    settings,
    setColumns: (next: ColumnSetting[]) => save({ ...saved, columns: next }),
    resetColumns: () => save(saved.density ? { density: saved.density } : {}),
    columns: applied,
  };
}

function titleOf<Row>(columns: ColumnsType<Row>, key: string): string {
  const column = columns.find((c) => columnId(c as ColumnsType<never>[number]) === key);
  const title = column?.title;
  return typeof title === 'string' && title ? title : key === 'actions' || key === 'action' ? '操作' : key;
}

/** The icons at the right of the list toolbar: refresh, density, columns, fullscreen. */
export function TableToolbar<Row>({
  columns,
  state,
  onRefresh,
  refreshing,
  fullscreen,
  onFullscreen,
}: {
  columns: ColumnsType<Row>;
  state: ReturnType<typeof useTableSettings<Row>>;
  onRefresh: () => void;
  refreshing: boolean;
  fullscreen: boolean;
  onFullscreen: () => void;
}) {
  const { settings } = state;
  const move = (at: number, by: number) => {
    const next = settings.slice();
    const [item] = next.splice(at, 1);
    next.splice(at + by, 0, item);
    state.setColumns(next);
  };
  const patch = (key: string, change: Partial<ColumnSetting>) =>
    state.setColumns(settings.map((s) => (s.key === key ? { ...s, ...change } : s)));
  const shown = settings.filter((s) => !s.hidden).length;

  const panel = (
    <div className="list-columns-panel">
      <div className="list-columns-head">
        <span>显示、顺序与固定</span>
        <Button type="link" size="small" onClick={state.resetColumns}>
          重置
        </Button>
      </div>
      <ul className="list-columns">
        {settings.map((s, at) => {
          const title = titleOf(columns, s.key);
          const current = columns.find((c) => columnId(c as ColumnsType<never>[number]) === s.key);
          const pin: Pin = s.pin ?? ((current?.fixed as Pin | undefined) || 'none');
          return (
            <li key={s.key} className="list-column">
              <Checkbox
                checked={!s.hidden}
                disabled={!s.hidden && shown <= 1}
                onChange={(e) => patch(s.key, { hidden: !e.target.checked })}
              >
                {title}
              </Checkbox>
              <span className="list-column-tools">
                <Button
                  type="text"
                  size="small"
                  aria-label={`上移 ${title}`}
                  icon={<ArrowUpOutlined aria-hidden />}
                  disabled={at === 0}
                  onClick={() => move(at, -1)}
                />
                <Button
                  type="text"
                  size="small"
                  aria-label={`下移 ${title}`}
                  icon={<ArrowDownOutlined aria-hidden />}
                  disabled={at === settings.length - 1}
                  onClick={() => move(at, 1)}
                />
                <Select<Pin>
                  size="small"
                  aria-label={`固定 ${title}`}
                  value={pin}
                  style={{ width: 76 }}
                  popupMatchSelectWidth={false}
                  options={[
                    { value: 'none', label: '不固定' },
                    { value: 'left', label: '左侧' },
                    { value: 'right', label: '右侧' },
                  ]}
                  onChange={(value) => patch(s.key, { pin: value })}
                />
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );

  return (
    <div className="list-table-tools">
      <Button
        type="text"
        aria-label="刷新列表"
        title="刷新"
        icon={<ReloadOutlined aria-hidden spin={refreshing} />}
        onClick={onRefresh}
      />
      <Dropdown
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [state.density],
          items: densities.map((d) => ({ key: d.key, label: d.label })),
          onClick: ({ key }) => state.setDensity(key as Density),
        }}
      >
        <Button type="text" aria-label="行密度" title="行密度" icon={<ColumnHeightOutlined aria-hidden />} />
      </Dropdown>
      {settings.length > 0 ? (
        <Popover trigger="click" placement="bottomRight" content={panel} title={null}>
          <Button type="text" aria-label="列设置" title="列设置" icon={<SettingOutlined aria-hidden />} />
        </Popover>
      ) : null}
      <Button
        type="text"
        aria-label={fullscreen ? '退出全屏' : '全屏'}
        title={fullscreen ? '退出全屏' : '全屏'}
        icon={fullscreen ? <FullscreenExitOutlined aria-hidden /> : <FullscreenOutlined aria-hidden />}
        onClick={onFullscreen}
      />
    </div>
  );
}
