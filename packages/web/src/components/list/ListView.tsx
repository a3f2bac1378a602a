import { ReloadOutlined } from '@ant-design/icons';
import type { ApiPath } from '@appdesk/contract/types';
import { Button, Empty, Pagination, Space, Spin, Table } from 'antd';
import type { ColumnsType, TablePaginationConfig, TableProps } from 'antd/es/table';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { setCurrentApp, useApps } from '../../state/apps';
import { useIsMobile } from '../useIsMobile';
import { followsApp } from './appScope';
import { actionsKey } from './columnCells';
import { DetailDrawer } from './DetailDrawer';
import { FilterForm } from './FilterForm';
import type { FilterField } from './filterForm';
import { ListActions } from './ListToolbar';
import { listFailure } from './listState';
import { PhoneCards } from './PhoneCards';
import { TableToolbar, useTableSettings } from './TableSettings';
import { type ListController, pageSizes, type SortOrder } from './useList';
import { useScrollableTable } from './useScrollableTable';
import { useTableOverflow } from './useTableOverflow';
import './list.css';

export { leaveOnTab } from './FilterForm';
export type { FilterField } from './filterForm';

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
  /**
   * Opens the page's own detail of a row (a drawer with more than the columns). Without it, 详情
   * opens the kit's drawer of every column, its row kept in the URL (`detail`).
   */
  onDetail?: (row: Row) => void;
  /** The kit's detail drawer's title (default 记录详情). */
  detailTitle?: string;
}

/**
 * The shared list block: a search form bound to the URL query over a server-paged antd Table (cards
 * on a phone), with column settings, a detail view of every row and export.
 */
export function ListView<Row extends object>(props: ListViewProps<Row>) {
  const { list, columns, rowKey, emptyText, header, expandable, onDetail } = props;
  const mobile = useIsMobile();
  const { nameOf } = useApps();
  // A list that follows the header's app has no 应用 filter of its own: the switcher is it.
  const fetchPath = list.fetchPath;
  const fields = useMemo(
    () => (followsApp(fetchPath) ? props.fields.filter((field) => field.name !== 'app') : props.fields),
    [props.fields, fetchPath],
  );
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

  // The detail: the page's own, or the kit's drawer of the row named by the URL.
  const { update } = list;
  const openDetail = useCallback(
    (row: Row) => (onDetail ? onDetail(row) : update({ detail: String(row[rowKey]) }, true)),
    [onDetail, update, rowKey],
  );
  const detailKey = onDetail ? undefined : list.param('detail');
  const detailRow = (detailKey && list.data?.list.find((row) => String(row[rowKey]) === detailKey)) || null;

  const shownColumns = useMemo(
    () =>
      withDetailAction(
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
        openDetail,
      ),
    [table.columns, list.sort, list.order, mobile, overflows, openDetail],
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

  const empty = list.error ? (
    <Empty className="list-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={listFailure(list.error)}>
      <Button icon={<ReloadOutlined aria-hidden />} onClick={() => void list.refetch()}>
        重新加载
      </Button>
    </Empty>
  ) : list.app && !list.hasFilters ? (
    // Only one app's records are asked for: the others' may be what the operator looks for.
    <Empty
      className="list-empty"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={`当前应用「${nameOf(list.app)}」：${emptyText}`}
    >
      <Button onClick={() => setCurrentApp(undefined)}>查看全部应用</Button>
    </Empty>
  ) : list.hasFilters ? (
    <Empty
      className="list-empty"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        list.app
          ? `当前应用「${nameOf(list.app)}」没有符合筛选条件的记录，请调整或清空筛选条件`
          : '没有符合筛选条件的记录，请调整或清空筛选条件'
      }
    >
      <Space wrap>
        <Button onClick={list.reset}>清空筛选</Button>
        {list.app ? <Button onClick={() => setCurrentApp(undefined)}>在全部应用中查看</Button> : null}
      </Space>
    </Empty>
  ) : (
    <Empty className="list-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
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

  // A page's own cards (a grid of pictures) on every width; on a phone, the kit's cards.
  const cards =
    props.cards ??
    (mobile
      ? (rows: Row[]) => (
          <PhoneCards rows={rows} columns={shownColumns} rowKey={rowKey} rowSelection={props.rowSelection} />
        )
      : undefined);

  return (
    <div className="list-view" ref={view}>
      {header}
      <div className="list-toolbar">
        <FilterForm list={list as ListController<unknown>} fields={fields} mobile={mobile} />
        <ListActions
          actions={props.actions}
          exportPath={props.exportPath}
          exportName={props.exportName}
          filter={list.filter as Record<string, unknown>}
          tools={
            <TableToolbar
              columns={columns}
              state={table}
              onRefresh={() => void list.refetch()}
              refreshing={list.loading}
              fullscreen={fullscreen}
              onFullscreen={toggleFullscreen}
            />
          }
        />
      </div>
      {cards ? (
        <Spin spinning={list.loading}>
          {list.data?.list.length ? cards(list.data.list) : list.loading && !list.data ? null : empty}
          {/* No "第 0-0 条，共 0 条" under an empty state. */}
          {list.data?.total ? (
            <Pagination
              className="list-cards-pagination"
              {...cardPagination}
              simple={mobile}
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
          columns={shownColumns}
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
      {onDetail ? null : (
        <DetailDrawer<Row>
          row={detailRow}
          columns={columns}
          title={props.detailTitle ?? '记录详情'}
          extra={expandable?.expandedRowRender && ((row) => expandable.expandedRowRender?.(row, 0, 0, true))}
          onClose={() => update({ detail: undefined }, true)}
        />
      )}
    </div>
  );
}

/** 详情 first among the row's actions (a 操作 column of its own when the page declares none). */
function withDetailAction<Row>(columns: ColumnsType<Row>, open: (row: Row) => void): ColumnsType<Row> {
  const link = (row: Row) => (
    <Button key="detail" type="link" size="small" onClick={() => open(row)}>
      详情
    </Button>
  );
  const at = columns.findIndex((column) => column.key === actionsKey);
  if (at < 0) return [...columns, { title: '操作', key: actionsKey, fixed: 'right', render: (_, row) => link(row) }];
  const own = columns[at];
  const render: NonNullable<typeof own.render> = (value, row, index) => (
    <Space size={0} wrap>
      {link(row)}
      {own.render?.(value, row, index) as ReactNode}
    </Space>
  );
  return columns.map((column, i) => (i === at ? { ...own, render } : column));
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
