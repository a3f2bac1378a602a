import type { ColumnsType, ColumnType } from 'antd/es/table';
import { isValidElement, type ReactNode } from 'react';

/** The column that holds a row's actions (its key on every list page). */
export const actionsKey = 'actions';

type Column<Row> = ColumnsType<Row>[number];

/** A column's value of `row`: its dataIndex, a key or a path. */
function cellValue<Row>(column: Column<Row>, row: Row): unknown {
  const index = (column as ColumnType<Row>).dataIndex as unknown;
  if (index === undefined || index === null) return undefined;
  const path = (Array.isArray(index) ? index : [index]) as (string | number)[];
  let value: unknown = row;
  for (const step of path) value = (value as Record<string | number, unknown> | null | undefined)?.[step];
  return value;
}

/** What a column's cell shows for `row`, outside the table (a phone card, the detail drawer). */
export function cellOf<Row>(column: Column<Row>, row: Row, index: number): ReactNode {
  const value = cellValue(column, row);
  const render = (column as ColumnType<Row>).render;
  const shown = render ? render(value, row, index) : value;
  // A render may answer { children, props } (cell spans): only the content counts here.
  if (shown && typeof shown === 'object' && !isValidElement(shown) && 'children' in shown) {
    return (shown as { children: ReactNode }).children;
  }
  if (shown === undefined || shown === null || shown === '') return <span className="list-muted">-</span>;
  return typeof shown === 'object' && !isValidElement(shown) ? String(shown) : (shown as ReactNode);
}

/** A column's heading as text or node (antd also allows a function of the sort state). */
export function titleOf<Row>(column: Column<Row>): ReactNode {
  return typeof column.title === 'function' ? null : (column.title as ReactNode);
}

/** The columns that show data (not the actions, not a selection or expand column). */
export function dataColumns<Row>(columns: ColumnsType<Row>): ColumnsType<Row> {
  return columns.filter((column) => column.key !== actionsKey && titleOf(column));
}
