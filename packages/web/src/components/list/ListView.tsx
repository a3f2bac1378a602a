import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { datePresets } from '@appdesk/contract/format';
import type { ApiPath } from '@appdesk/contract/types';
import { Button, DatePicker, Empty, Form, Input, Pagination, Select, Space, Spin, Table } from 'antd';
import type { ColumnsType, TablePaginationConfig, TableProps } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { downloadExport } from '../download';
import { useIsMobile } from '../useIsMobile';
import { listFailure } from './listState';
import { TableToolbar, useTableSettings } from './TableSettings';
import { type ListController, type ListValues, pageSizes, type SortOrder } from './useList';
import { useScrollableTable } from './useScrollableTable';
import { useTableOverflow } from './useTableOverflow';
import './list.css';

/** One control of the search form; its value lives in the URL under `name` (a range: `from`/`to`). */
export type FilterField =
  | { kind: 'text'; name: string; label: string; placeholder: string; width?: number }
  | { kind: 'id'; name: string; label: string; placeholder: string; width?: number }
  | {
      kind: 'select';
      name: string;
      label: string;
      options: { label: string; value: string }[];
      placeholder?: string;
      width?: number;
    }
  | { kind: 'range'; name: 'range'; label: string };

/** Desktop width of a control; under 900 px the stylesheet makes every control full width. */
const fieldWidth = (px: number) => ({ '--list-field-width': `${px}px` }) as CSSProperties;

type FormValues = Record<string, string | [Dayjs, Dayjs] | null | undefined>;

function toFormValues(fields: FilterField[], values: ListValues): FormValues {
  const out: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'range') {
      const from = values.from ? dayjs(values.from) : null;
      const to = values.to ? dayjs(values.to) : null;
      out.range = from?.isValid() && to?.isValid() ? [from, to] : null;
    } else if (field.kind === 'select') {
      out[field.name] = values[field.name] ?? '';
    } else {
      out[field.name] = values[field.name] ?? '';
    }
  }
  return out;
}

function toQueryPatch(fields: FilterField[], form: FormValues): Record<string, string | undefined> {
  const patch: Record<string, string | undefined> = {};
  for (const field of fields) {
    if (field.kind === 'range') {
      const range = form.range as [Dayjs, Dayjs] | null | undefined;
      // A picked day covers the whole day; presets already carry exact ends.
      patch.from = range?.[0] ? range[0].startOf('day').toISOString() : undefined;
      patch.to = range?.[1] ? range[1].endOf('day').toISOString() : undefined;
    } else {
      const value = form[field.name];
      patch[field.name] = typeof value === 'string' && value.trim() ? value.trim() : undefined;
    }
  }
  return patch;
}

/**
 * Tab and Shift+Tab leave a date-range picker, even while it is empty: antd pulls the focus back to
 * an empty start date (a keyboard trap on every list with a time filter), so step over the whole
 * picker ourselves. Picking the start date still moves on to the end date, as antd does.
 */
export function leaveOnTab(event: KeyboardEvent<HTMLElement>) {
  const picker = (event.target as HTMLElement).closest('.ant-picker');
  if (event.key !== 'Tab' || !picker) return;
  const focusable = [
    ...document.querySelectorAll<HTMLElement>(
      'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
    ),
  ].filter((el) => el.offsetParent !== null && !picker.contains(el));
  const after = focusable.find((el) => picker.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const before = focusable.findLast((el) => picker.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING);
  const next = event.shiftKey ? before : after;
  if (!next) return;
  event.preventDefault();
  event.stopPropagation();
  next.focus();
}

export interface ListViewProps<Row> {
  list: ListController<Row>;
  columns: ColumnsType<Row>;
  rowKey: keyof Row & string;
  fields: FilterField[];
  /** Explanation when the list has no rows and no filter is set. */
  emptyText: string;
  /** Export endpoint: the current filter (no page, size) is POSTed and the .xlsx downloaded. */
  exportPath?: ApiPath;
  exportName?: string;
  /** Buttons beside 导出 Excel (e.g. 生成账号). */
  actions?: ReactNode;
  /** Above the form (e.g. status tabs). */
  header?: ReactNode;
  expandable?: TableProps<Row>['expandable'];
  /** Horizontal scroll width of the table (narrow screens scroll sideways). */
  scrollX?: number | 'max-content';
  /** Row checkboxes for bulk actions (the table view). */
  rowSelection?: TableProps<Row>['rowSelection'];
  /** Where the operator's column and density choices are kept (default: the list's endpoint). */
  settingsKey?: string;
  /** Another view of the same page (e.g. a grid of pictures), shown instead of the table with the same pagination. */
  cards?: (rows: Row[]) => ReactNode;
}

/** The shared list block: a search form bound to the URL query over a server-paged antd Table. */
export function ListView<Row extends object>(props: ListViewProps<Row>) {
  const { list, columns, rowKey, fields, emptyText, exportPath, exportName, actions, header, expandable } = props;
  const [form] = Form.useForm<FormValues>();
  const [exporting, setExporting] = useState(false);
  const presets = useMemo(
    () => Object.entries(datePresets()).map(([label, value]) => ({ label, value: value as [Dayjs, Dayjs] })),
    [],
  );

  // Keep the form in step with the URL (back/forward, links, reset), only when the URL's values
  // changed: a workspace tab shown again re-runs effects, and must keep what was typed but not sent.
  // Before paint (layout effect): on a busy machine a passive effect could run after the operator
  // had already typed into the freshly shown form, and wipe it.
  // A change the form sent itself is not written back: the URL's render may come after the operator
  // has typed the next search, which it would replace with the one just sent.
  const synced = useRef<string | null>(null);
  const sent = useRef<Record<string, string | undefined> | null>(null);
  useLayoutEffect(() => {
    const now = JSON.stringify(list.values);
    if (synced.current === now) return;
    synced.current = now;
    const own = sent.current;
    sent.current = null;
    if (own && Object.entries(own).every(([key, value]) => list.values[key] === value)) return;
    form.setFieldsValue(toFormValues(fields, list.values));
  }, [form, fields, list.values]);

  const apply = (values: FormValues) => {
    const patch = toQueryPatch(fields, values);
    sent.current = patch;
    list.update(patch);
  };

  const mobile = useIsMobile();
  const table = useTableSettings(props.settingsKey ?? list.fetchPath, columns);
  const view = useRef<HTMLDivElement>(null);
  useScrollableTable(view, '表格（可左右滚动）');
  const overflows = useTableOverflow(view);
  const [fullscreen, setFullscreen] = useState(false);
  const [stickyTop, setStickyTop] = useState(0);
  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === view.current && view.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  // The header row sticks under the console's header and tab bar (at the top in fullscreen).
  // Measured again when the width class changes (the bars differ on a phone).
  useLayoutEffect(() => {
    const below = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().height ?? 0;
    setStickyTop(fullscreen || mobile === null ? 0 : below('.admin-header') + below('.admin-tabs-head'));
  }, [fullscreen, mobile]);
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void view.current?.requestFullscreen?.().catch(() => undefined);
  };
  const sortedColumns = useMemo(
    () =>
      table.columns.map((column) => {
        // A pinned column covers its neighbours once the table overflows its box: all scrolls together.
        if ((mobile || overflows) && column.fixed) column = { ...column, fixed: undefined };
        if (!column.sorter || column.key === undefined) return column;
        return {
          ...column,
          sortOrder: list.sort === column.key ? (list.order ?? null) : null,
          // Never back to "unsorted": the server always sorts by something.
          sortDirections: ['descend', 'ascend', 'descend'] as SortOrder[],
        };
      }),
    [table.columns, list.sort, list.order, mobile, overflows],
  );

  const onTableChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const key = one?.columnKey !== undefined ? String(one.columnKey) : undefined;
      const order = one?.order ?? undefined;
      const isDefault = !key || !order || (key === list.defaultSort?.sort && order === list.defaultSort?.order);
      list.update({ sort: isDefault ? undefined : key, order: isDefault ? undefined : order });
      return;
    }
    const size = pagination.pageSize ?? list.size;
    const page = size !== list.size ? 1 : (pagination.current ?? 1);
    list.update({ page, size }, true);
  };

  const onExport = async () => {
    if (!exportPath) return;
    setExporting(true);
    try {
      await downloadExport(exportPath, list.filter, `${exportName ?? '导出'}.xlsx`);
    } catch {
      // The download helper already told the user.
    } finally {
      setExporting(false);
    }
  };

  const empty = list.error ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={listFailure(list.error)}>
      <Button icon={<ReloadOutlined aria-hidden />} onClick={() => void list.refetch()}>
        重新加载
      </Button>
    </Empty>
  ) : list.hasFilters ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合筛选条件的记录，请调整或清空筛选条件">
      <Button onClick={list.reset}>清空筛选</Button>
    </Empty>
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
  );

  const pagination: TablePaginationConfig = {
    current: list.page + 1,
    pageSize: list.size,
    total: list.data?.total ?? 0,
    pageSizeOptions: pageSizes,
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: (total, [from, to]) =>
      list.data?.totalExact === false ? (
        <span>
          第 {from}-{to} 条，超过 {total.toLocaleString('zh-CN')} 条
          <Button type="link" size="small" onClick={() => list.update({ exact: 1 }, true)}>
            计算精确总数
          </Button>
        </span>
      ) : (
        `第 ${from}-${to} 条，共 ${total.toLocaleString('zh-CN')} 条`
      ),
    responsive: true,
    placement: ['bottomEnd'],
  };

  const { placement: _placement, ...cardPagination } = pagination;

  return (
    <div className="list-view" ref={view}>
      {header}
      <div className="list-toolbar">
        <Form
          form={form}
          layout="inline"
          className="list-form"
          onKeyDownCapture={leaveOnTab}
          onFinish={apply}
          initialValues={toFormValues(fields, list.values)}
        >
          {fields.map((field) => {
            if (field.kind === 'range') {
              return (
                <Form.Item key="range" name="range" label={field.label}>
                  <DatePicker.RangePicker
                    className="list-field"
                    classNames={{ popup: { root: 'list-range-popup' } }}
                    style={fieldWidth(260)}
                    presets={presets}
                    allowEmpty={[false, false]}
                    onChange={(value) => apply({ ...form.getFieldsValue(), range: value as [Dayjs, Dayjs] | null })}
                  />
                </Form.Item>
              );
            }
            if (field.kind === 'select') {
              return (
                <Form.Item key={field.name} name={field.name} label={field.label}>
                  <Select
                    options={field.options}
                    placeholder={field.placeholder}
                    className="list-field"
                    style={fieldWidth(field.width ?? 160)}
                    popupMatchSelectWidth={false}
                    onChange={(value: string) => apply({ ...form.getFieldsValue(), [field.name]: value })}
                  />
                </Form.Item>
              );
            }
            return (
              <Form.Item
                key={field.name}
                name={field.name}
                label={field.label}
                rules={field.kind === 'id' ? [{ pattern: /^\s*\d{1,10}\s*$/, message: '请输入数字 ID' }] : undefined}
              >
                <Input
                  placeholder={field.placeholder}
                  allowClear
                  inputMode={field.kind === 'id' ? 'numeric' : undefined}
                  maxLength={field.kind === 'id' ? 10 : 50}
                  className="list-field"
                  style={fieldWidth(field.width ?? 200)}
                  onChange={(event) => {
                    // Clearing with the × applies at once; typing waits for Enter or 查询.
                    if (event.type === 'click' && !event.target.value) {
                      apply({ ...form.getFieldsValue(), [field.name]: '' });
                    }
                  }}
                />
              </Form.Item>
            );
          })}
          {fields.length > 0 ? (
            <Form.Item className="list-form-buttons">
              <Space wrap>
                <Button type="primary" htmlType="submit" icon={<SearchOutlined aria-hidden />}>
                  查询
                </Button>
                <Button onClick={list.reset} disabled={!list.hasFilters}>
                  重置
                </Button>
              </Space>
            </Form.Item>
          ) : null}
        </Form>
        <Space wrap className="list-actions">
          {actions}
          {exportPath ? (
            <Button icon={<DownloadOutlined aria-hidden />} loading={exporting} onClick={() => void onExport()}>
              导出 Excel
            </Button>
          ) : null}
          {props.cards ? null : (
            <TableToolbar
              columns={columns}
              state={table}
              onRefresh={() => void list.refetch()}
              refreshing={list.loading}
              fullscreen={fullscreen}
              onFullscreen={toggleFullscreen}
            />
          )}
        </Space>
      </div>
      {props.cards ? (
        <Spin spinning={list.loading}>
          {list.data?.list.length ? props.cards(list.data.list) : list.loading && !list.data ? null : empty}
          {/* No "第 0-0 条，共 0 条" under an empty state. */}
          {list.data?.total ? (
            <Pagination
              className="list-cards-pagination"
              {...cardPagination}
              onChange={(page, size) => list.update({ page: size !== list.size ? 1 : page, size }, true)}
            />
          ) : null}
        </Spin>
      ) : (
        <Table<Row>
          className="list-table"
          size={table.density}
          sticky={{ offsetHeader: stickyTop }}
          rowKey={rowKey}
          columns={sortedColumns}
          dataSource={list.data?.list ?? []}
          loading={list.loading}
          onChange={onTableChange}
          expandable={expandable}
          rowSelection={props.rowSelection && withChineseLabels(props.rowSelection)}
          scroll={{ x: props.scrollX ?? 'max-content' }}
          locale={{ emptyText: list.loading && !list.data ? ' ' : empty }}
          pagination={pagination}
        />
      )}
    </div>
  );
}

/**
 * antd names its selection checkboxes in English whatever the locale ("Select all", "Select row 3"),
 * which is what a screen reader says; these are the page's own words.
 */
function withChineseLabels<Row>(selection: NonNullable<TableProps<Row>['rowSelection']>) {
  return {
    ...selection,
    getTitleCheckboxProps: () => ({ 'aria-label': '全选本页', ...selection.getTitleCheckboxProps?.() }),
    getCheckboxProps: (row: Row) => ({ 'aria-label': '选择此行', ...selection.getCheckboxProps?.(row) }),
  };
}
