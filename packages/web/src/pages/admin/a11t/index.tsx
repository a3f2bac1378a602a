import { PlusOutlined } from '@ant-design/icons';
import { configTypes } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { appColumn } from '../../../components/admin/appField';
import {
  ConfirmLink,
  type FilterField,
  type ListValues,
  ListView,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { untilSettled } from '../../../components/writes';
import { ConfigEditor } from './ConfigEditor';
import { HistoryDrawer } from './History';
import './a11t.css';
import { Allowed } from '../../../components/admin/Allowed';
import { useGrants } from '../../../state/grants';

type Entry = ApiOutput<'/api/a11t/fetch/page'>['list'][number];

const keys = ['search', 'type'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '搜索', placeholder: '键名或说明', width: 200 },
  {
    kind: 'select',
    name: 'type',
    label: '类型',
    width: 120,
    options: [{ value: '', label: '全部类型' }, ...configTypes.map((t) => ({ value: t.value, label: t.label }))],
  },
];
const sortColumns = ['key', 'updatedAt'] as const;
const defaultSort = { sort: 'key', order: 'ascend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const type = configTypes.find((t) => t.value === values.type)?.value;
  return {
    search: values.search ?? '',
    ...(type ? { type } : {}),
    ...sortParams(sort, sortColumns),
  };
}

/** /admin/admin/a11t (键值配置): remote config with typed values, conditional overrides and full history. */
export default function A11tPage() {
  const list = useList({ fetchPath: '/api/a11t/fetch/page', keys, toFilter, defaultSort });
  const [editing, setEditing] = useState<Entry | 'new' | null>(null);
  const [history, setHistory] = useState<Entry | null>(null);
  const remove = useApiAction('/api/a11t/remove');
  // Without 键值配置 · 修改 the key opens its history, the read-only view of it.
  const writable = useGrants().canCall('/api/a11t/update');
  const open = writable ? setEditing : setHistory;

  const columns = useMemo<ColumnsType<Entry>>(
    () => [
      {
        title: '键名',
        key: 'key',
        sorter: true,
        render: (_, e) => (
          <div className="a11t-key-cell">
            <Typography.Link strong className="a11t-code" onClick={() => open(e)}>
              {e.key}
            </Typography.Link>
            <Typography.Text type="secondary" ellipsis={{ tooltip: e.description }}>
              {e.description || '（无说明）'}
            </Typography.Text>
          </div>
        ),
      },
      appColumn<Entry>(),
      { title: '类型', dataIndex: 'type', key: 'type', render: (t: string) => <Tag>{labelOf(configTypes, t)}</Tag> },
      {
        title: '值',
        key: 'value',
        render: (_, e) => (
          <Space size={4} wrap>
            <Typography.Text code ellipsis={{ tooltip: e.value }} className="a11t-value-cell">
              {e.value === '' ? '（空）' : e.value}
            </Typography.Text>
            {e.overrides.length ? <Tag color="purple">条件值 {e.overrides.length} 条</Tag> : null}
          </Space>
        ),
      },
      { title: '修订', dataIndex: 'revision', key: 'revision', align: 'right', render: (n: number) => `#${n}` },
      { title: '修改人', dataIndex: 'updatedBy', key: 'updatedBy' },
      timeColumn('最近修改', 'updatedAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, e) => (
          <Space size={0}>
            {writable ? (
              <Button type="link" size="small" onClick={() => setEditing(e)}>
                编辑
              </Button>
            ) : null}
            <Button type="link" size="small" onClick={() => setHistory(e)}>
              历史
            </Button>
            <ConfirmLink
              title="删除键值"
              description="App 下次获取配置时不再有这个键；修订历史保留。"
              okText="删除"
              danger
              path="/api/a11t/remove"
              onConfirm={() => untilSettled(remove.mutate, { id: e.id })}
            >
              删除
            </ConfirmLink>
          </Space>
        ),
      },
    ],
    [remove.mutate, writable, open],
  );

  return (
    <>
      <ListView<Entry>
        exportPath="/api/a11t/export"
        exportName="键值配置"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有键值。点击“新建键值”添加远程配置，App 启动时一次取回全部键值。"
        actions={
          <Allowed path="/api/a11t/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建键值
            </Button>
          </Allowed>
        }
      />
      <ConfigEditor target={editing} onClose={() => setEditing(null)} />
      <HistoryDrawer entry={history} onClose={() => setHistory(null)} />
    </>
  );
}
