import type { ColumnsType } from 'antd/es/table';
import { describe, expect, it } from 'vitest';
import { cellOf, dataColumns } from './columnCells';

interface Row {
  id: number;
  name: string;
  owner: { phone: string } | null;
}
const row: Row = { id: 7, name: '年度会员', owner: { phone: '138****0000' } };

describe('a column outside the table (phone cards, the detail drawer)', () => {
  it('shows the value at its dataIndex, a path, or what its render makes of it', () => {
    expect(cellOf<Row>({ title: '名称', dataIndex: 'name' }, row, 0)).toBe('年度会员');
    expect(cellOf<Row>({ title: '手机号', dataIndex: ['owner', 'phone'] }, row, 0)).toBe('138****0000');
    expect(cellOf<Row>({ title: 'ID', key: 'id', render: (_, r) => `#${r.id}` }, row, 0)).toBe('#7');
    // A render that answers a cell with props: only its content.
    expect(
      cellOf<Row>({ title: '名称', dataIndex: 'name', render: (v) => ({ children: `《${v}》`, props: {} }) }, row, 0),
    ).toBe('《年度会员》');
  });

  it('shows an empty value as a dash, not as nothing', () => {
    const shown = cellOf<Row>({ title: '手机号', dataIndex: ['owner', 'phone'] }, { ...row, owner: null }, 0);
    expect(shown).toMatchObject({ props: { children: '-' } });
  });

  it('leaves out the actions and columns without a heading', () => {
    const columns: ColumnsType<Row> = [
      { title: '名称', dataIndex: 'name', key: 'name' },
      { title: '操作', key: 'actions' },
      { key: 'blank' },
    ];
    expect(dataColumns(columns).map((c) => c.key)).toEqual(['name']);
  });
});
