import { Checkbox } from 'antd';
import type { ColumnsType, TableProps } from 'antd/es/table';
import type { Key } from 'react';
import { actionsKey, cellOf, dataColumns, titleOf } from './columnCells';

/**
 * The list on a phone: one card per row, its first column as the heading, the other columns as
 * short label–value lines, and the row's actions under them, so the first row and its actions are
 * on the first screen instead of a table scrolled sideways.
 */
export function PhoneCards<Row extends object>(props: {
  rows: Row[];
  columns: ColumnsType<Row>;
  rowKey: keyof Row & string;
  rowSelection?: TableProps<Row>['rowSelection'];
}) {
  const { rows, columns, rowKey, rowSelection } = props;
  const [first, ...rest] = dataColumns(columns);
  const actions = columns.find((column) => column.key === actionsKey);
  const selected = new Set<Key>(rowSelection?.selectedRowKeys ?? []);
  const keyOf = (row: Row) => row[rowKey] as Key;
  const select = (next: Set<Key>) =>
    rowSelection?.onChange?.(
      [...next],
      rows.filter((row) => next.has(keyOf(row))),
      { type: 'multiple' },
    );
  const allOnPage = rows.length > 0 && rows.every((row) => selected.has(keyOf(row)));

  return (
    <div className="list-phone">
      {rowSelection ? (
        <Checkbox
          className="list-phone-all"
          checked={allOnPage}
          indeterminate={!allOnPage && rows.some((row) => selected.has(keyOf(row)))}
          onChange={(event) => {
            const next = new Set(selected);
            for (const row of rows) {
              if (event.target.checked) next.add(keyOf(row));
              else next.delete(keyOf(row));
            }
            select(next);
          }}
        >
          全选本页
        </Checkbox>
      ) : null}
      <ul className="list-phone-cards">
        {rows.map((row, index) => {
          const key = keyOf(row);
          return (
            <li key={String(key)} className="list-phone-card" data-row-key={String(key)}>
              <div className="list-phone-head">
                {rowSelection ? (
                  <Checkbox
                    aria-label="选择此行"
                    checked={selected.has(key)}
                    {...rowSelection.getCheckboxProps?.(row)}
                    onChange={(event) => {
                      const next = new Set(selected);
                      if (event.target.checked) next.add(key);
                      else next.delete(key);
                      select(next);
                    }}
                  />
                ) : null}
                <div className="list-phone-title">{first ? cellOf(first, row, index) : null}</div>
              </div>
              <dl className="list-phone-fields">
                {rest.map((column, at) => (
                  <div key={String(column.key ?? at)} className="list-phone-field">
                    <dt>{titleOf(column)}</dt>
                    <dd>{cellOf(column, row, index)}</dd>
                  </div>
                ))}
              </dl>
              {actions ? <div className="list-phone-actions">{cellOf(actions, row, index)}</div> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
