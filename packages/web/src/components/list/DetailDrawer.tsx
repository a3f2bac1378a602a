import { Descriptions, Drawer } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useIsMobile } from '../useIsMobile';
import { cellOf, dataColumns, titleOf } from './columnCells';

/**
 * A record's detail for lists without a drawer of their own: every column the list declares (also
 * those the operator hid), one per line with room for long values, and what the row expands to.
 */
export function DetailDrawer<Row>(props: {
  row: Row | null;
  columns: ColumnsType<Row>;
  title: string;
  extra?: (row: Row) => ReactNode;
  onClose: () => void;
}) {
  const { row, columns, title, extra, onClose } = props;
  const mobile = useIsMobile();
  return (
    <Drawer title={title} open={row !== null} onClose={onClose} size={mobile ? '100%' : 560} destroyOnHidden>
      {row ? (
        <>
          <Descriptions
            column={1}
            size="small"
            bordered
            className="list-detail"
            styles={{ label: { width: 112 } }}
            items={dataColumns(columns).map((column, index) => ({
              key: String(column.key ?? index),
              label: titleOf(column),
              children: cellOf(column, row, 0),
            }))}
          />
          {extra ? <div className="list-detail-extra">{extra(row)}</div> : null}
        </>
      ) : null}
    </Drawer>
  );
}
